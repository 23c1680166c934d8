package io.sluice.cli;

import java.io.InputStream;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.Map;

/**
 * What one run of the CLI works with: the environment it reads defaults from, where it reads
 * ({@code limits import -}) and writes, and the clock that ages throttles. Passed in so that
 * tests run the CLI in process.
 */
record Invocation(Map<String, String> env, InputStream in, PrintWriter out, PrintWriter err, Clock clock) {}
