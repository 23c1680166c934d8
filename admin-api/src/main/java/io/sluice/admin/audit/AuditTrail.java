package io.sluice.admin.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpStatusClass;
import io.sluice.admin.http.ApiException;
import io.sluice.admin.http.ApiRequest;
import io.sluice.admin.http.ApiResponse;
import io.sluice.admin.http.RouteHandler;
import io.sluice.cluster.ClusterStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Every change of limits or admission settings made through the admin API: one JSON line on the
 * {@code io.sluice.audit} logger, and the last {@link #KEPT} at {@code GET /api/v1/audit}. An
 * entry says when, which Sluice of a cluster took the change, from which address, with which token
 * ({@code admin}, {@code read} or {@code none}), the method and path, and what the path read before
 * and after (null where it had nothing). Only changes that took effect are recorded.
 *
 * <p>Changes through the API are taken one at a time here, so that each entry's before and after
 * are those of that change alone. Thread-safe.
 */
public final class AuditTrail {

    /** How many entries {@code GET /api/v1/audit} keeps. */
    public static final int KEPT = 1000;

    private static final Logger log = LoggerFactory.getLogger("io.sluice.audit");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Clock clock;
    private final Supplier<ClusterStatus> cluster;
    private final ReentrantLock changes = new ReentrantLock();
    /** Guarded by itself; oldest first. */
    private final Deque<JsonNode> entries = new ArrayDeque<>();

    /** @param cluster names this Sluice in each entry when it shares limits with others */
    public AuditTrail(Clock clock, Supplier<ClusterStatus> cluster) {
        this.clock = clock;
        this.cluster = cluster;
    }

    /**
     * {@code change}, audited: {@code current} answers a {@code GET} of the same path, read before
     * and after the change.
     */
    public RouteHandler audited(RouteHandler change, RouteHandler current) {
        return request -> {
            changes.lock();
            try {
                JsonNode before = read(current, request);
                ApiResponse response = change.handle(request);
                if (response.status().codeClass() == HttpStatusClass.SUCCESS) {
                    record(request, before, read(current, request));
                }
                return response;
            } finally {
                changes.unlock();
            }
        };
    }

    /** {@code GET /api/v1/audit}: the entries kept, oldest first. */
    public ApiResponse get(ApiRequest request) {
        List<JsonNode> kept;
        synchronized (entries) {
            kept = List.copyOf(entries);
        }
        return ApiResponse.json(HttpResponseStatus.OK, Map.of("entries", kept));
    }

    private void record(ApiRequest request, JsonNode before, JsonNode after) {
        ObjectNode entry = JSON.createObjectNode();
        entry.put("time", clock.instant().toString());
        String member = cluster.get().member();
        if (member != null) {
            entry.put("sluice", member);
        }
        entry.put("remoteAddress", request.requester().address());
        entry.put("token", request.requester().caller().label());
        entry.put("method", request.method().name());
        entry.put("path", request.path().toString());
        entry.set("before", before);
        entry.set("after", after);
        log.info("{}", entry);
        synchronized (entries) {
            entries.addLast(entry);
            if (entries.size() > KEPT) {
                entries.removeFirst();
            }
        }
    }

    /** What {@code current} answers for the path: null for nothing there (404). */
    private static JsonNode read(RouteHandler current, ApiRequest request) throws IOException {
        ApiResponse response;
        try {
            response = current.handle(new ApiRequest(
                    HttpMethod.GET,
                    request.path(),
                    request.params(),
                    request.headers(),
                    new byte[0],
                    request.requester()));
        } catch (ApiException nothingThere) {
            return NullNode.getInstance();
        }
        return response.status().equals(HttpResponseStatus.OK)
                ? JSON.readTree(response.body())
                : NullNode.getInstance();
    }
}
