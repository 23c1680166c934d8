package io.sluice.bench.sidebyside;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a running JVM holds, asked through {@code jcmd}: its heap (used and committed) and, when it
 * runs with {@code -XX:NativeMemoryTracking=summary}, its native memory committed by kind; and its
 * thread count from {@code /proc}.
 *
 * @param heapUsedMiB        live and not yet collected objects
 * @param heapCommittedMiB   what the heap has taken from the OS
 * @param nativeByKind       MiB of native memory committed by kind ({@code Total} included), empty without tracking
 * @param threads            the process's threads
 */
record JvmMemory(double heapUsedMiB, double heapCommittedMiB, Map<String, Double> nativeByKind, long threads) {

    /** The kinds of native memory the reports show, in this order. */
    static final String KINDS = "total / heap / threads / code / GC / other (direct buffers) / class+metaspace";

    private static final Pattern HEAP = Pattern.compile("total (\\d+)K, used (\\d+)K");
    /** A kind's line, e.g. {@code -                 Java Heap (reserved=524288KB, committed=209920KB)}. */
    private static final Pattern NATIVE =
            Pattern.compile("^- +([A-Za-z][^(\\n]*?) \\(reserved=\\d+KB, committed=(\\d+)KB", Pattern.MULTILINE);

    private static final Pattern TOTAL = Pattern.compile("Total: reserved=\\d+KB, committed=(\\d+)KB");

    static JvmMemory of(long pid) {
        return parse(jcmd(pid, "GC.heap_info"), jcmd(pid, "VM.native_memory summary"), threads(pid));
    }

    /** Reads what {@code jcmd GC.heap_info} and {@code jcmd VM.native_memory summary} printed. */
    static JvmMemory parse(String heapInfo, String nmt, long threads) {
        Matcher heap = HEAP.matcher(heapInfo);
        double used = Double.NaN;
        double committed = Double.NaN;
        if (heap.find()) {
            committed = Long.parseLong(heap.group(1)) / 1024.0;
            used = Long.parseLong(heap.group(2)) / 1024.0;
        }
        Map<String, Double> kinds = new LinkedHashMap<>();
        Matcher total = TOTAL.matcher(nmt);
        if (total.find()) {
            kinds.put("Total", Long.parseLong(total.group(1)) / 1024.0);
            Matcher kind = NATIVE.matcher(nmt);
            while (kind.find()) {
                kinds.put(kind.group(1).trim(), Long.parseLong(kind.group(2)) / 1024.0);
            }
        }
        return new JvmMemory(used, committed, kinds, threads);
    }

    /** Native memory committed in all, NaN without tracking. */
    double nativeCommittedMiB() {
        return nativeByKind.getOrDefault("Total", Double.NaN);
    }

    /** The kinds of {@link #KINDS}, e.g. {@code 310 / 256 / 12 / 9 / 14 / 8 / 11}; "-" without tracking. */
    String nativeSummary() {
        if (nativeByKind.isEmpty()) {
            return "-";
        }
        double classes = nativeByKind.getOrDefault("Class", 0.0) + nativeByKind.getOrDefault("Metaspace", 0.0);
        return String.join(
                " / ",
                List.of(
                        num("Total"),
                        num("Java Heap"),
                        num("Thread"),
                        num("Code"),
                        num("GC"),
                        num("Other"),
                        MarkdownTable.num(classes, 0)));
    }

    private String num(String kind) {
        return MarkdownTable.num(nativeByKind.getOrDefault(kind, Double.NaN), 0);
    }

    /** Runs {@code jcmd PID COMMAND...} and returns what it printed. */
    static String jcmd(long pid, String command) {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        try {
            List<String> arguments = new ArrayList<>(List.of(jcmd.toString(), Long.toString(pid)));
            arguments.addAll(List.of(command.split(" ")));
            Process process =
                    new ProcessBuilder(arguments).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            process.waitFor(30, TimeUnit.SECONDS);
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run jcmd " + pid + " " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static long threads(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("Threads:")) {
                    return Long.parseLong(line.substring("Threads:".length()).trim());
                }
            }
            return -1;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
