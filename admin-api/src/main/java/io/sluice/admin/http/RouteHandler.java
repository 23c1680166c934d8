package io.sluice.admin.http;

import java.io.IOException;

/**
 * Answers one route. Runs on the admin handler executor, never on an I/O event loop, so it may
 * block (persisting limits fsyncs). It reports client errors by throwing {@link ApiException} or
 * {@link io.sluice.settings.InvalidSettingsException}; the router turns them into error responses.
 */
@FunctionalInterface
public interface RouteHandler {

    /** The response to {@code request}. */
    ApiResponse handle(ApiRequest request) throws IOException;
}
