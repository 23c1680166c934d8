package io.sluice.admin.status;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.sluice.admin.http.ApiRequest;
import io.sluice.admin.http.ApiResponse;
import io.sluice.status.ClientIdentity;
import io.sluice.status.ThrottleLedger;
import io.sluice.status.ThrottledClient;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/throttled}: the clients throttled now, oldest first, as a JSON array of
 * {@link ThrottledClient}, each client's identity fields (as its front end declares them: a Pulsar
 * {@code producerId} or {@code consumerId} and {@code role}, a Kafka {@code clientId} and
 * {@code principal}) among the others, after {@code connection}.
 */
public final class ThrottledResource {

    private final ThrottleLedger ledger;

    public ThrottledResource(ThrottleLedger ledger) {
        this.ledger = ledger;
    }

    public ApiResponse get(ApiRequest request) {
        List<Map<String, Object>> entries = new ArrayList<>();
        for (ThrottledClient client : ledger.throttled()) {
            entries.add(entry(client));
        }
        return ApiResponse.json(HttpResponseStatus.OK, entries);
    }

    private static Map<String, Object> entry(ThrottledClient client) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("protocol", client.protocol());
        entry.put("connection", client.connection());
        for (ClientIdentity.Value value : client.identity().values()) {
            entry.put(value.field().name(), value.value());
        }
        entry.put("topic", client.topic());
        entry.put("scope", client.scope());
        entry.put("reason", client.reason());
        entry.put("action", client.action());
        entry.put("since", client.since());
        entry.put("heldMessages", client.heldMessages());
        entry.put("heldBytes", client.heldBytes());
        return entry;
    }
}
