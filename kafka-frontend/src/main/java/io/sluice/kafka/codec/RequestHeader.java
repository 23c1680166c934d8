package io.sluice.kafka.codec;

import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import org.apache.kafka.common.protocol.ApiKeys;

import java.nio.charset.StandardCharsets;

/**
 * The header of one request frame, read in place: {@code api_key int16, api_version int16,
 * correlation_id int32, client_id nullable string}, then tagged fields in header v2. Which header
 * version a request uses follows from its API key and version (kafka-clients' tables). One instance
 * is reused for every request of a connection, on its event loop; {@link #read} overwrites it.
 *
 * <p>Requests for an API Sluice does not know, or for a version of a {@link HandledApi} it does not
 * handle, raise a {@link MalformedFrameException}: Sluice advertises neither, so a client that sends
 * one is not following the negotiation. The one exception is ApiVersions itself, which a newer
 * client sends before it knows what Sluice supports: see {@link #isNewerApiVersions()}.
 */
public final class RequestHeader {

    /** Size prefix, api key, version, correlation id and the client id's length. */
    private static final int FIXED_PART = 4 + 2 + 2 + 4 + 2;

    private final WireCursor cursor = new WireCursor();
    private short apiKey;
    private short apiVersion;
    private int correlationId;
    private int clientIdIndex;
    private int clientIdLength;
    private int bodyIndex;
    private boolean newerApiVersions;

    /** Reads the header of {@code frame} (size prefix included); its buffer's indexes do not move. */
    public RequestHeader read(FrameView frame) {
        int start = frame.index();
        if (frame.length() < FIXED_PART) {
            throw new MalformedFrameException(
                    "bad_header", "request of " + frame.length() + " bytes is shorter than a request header");
        }
        apiKey = frame.buffer().getShort(start + 4);
        apiVersion = frame.buffer().getShort(start + 6);
        correlationId = frame.buffer().getInt(start + 8);
        ApiKeys key = knownKey(apiKey);
        if (key == null) {
            throw new MalformedFrameException("unknown_api_key", "API key " + apiKey + " is not one Sluice knows");
        }
        HandledApi handled = HandledApi.of(apiKey);
        newerApiVersions = handled == HandledApi.API_VERSIONS && apiVersion > handled.maxVersion();
        if (apiVersion < 0 || handled != null && !handled.supports(apiVersion) && !newerApiVersions) {
            throw new MalformedFrameException(
                    "unsupported_api_version", key.name + " v" + apiVersion + " is not a version Sluice handles");
        }
        cursor.reset(frame, start + 12, "bad_header");
        clientIdLength = cursor.int16();
        clientIdIndex = cursor.index();
        cursor.skipSized(clientIdLength);
        if (key.requestHeaderVersion(apiVersion) >= 2) {
            cursor.skipTaggedFields();
        }
        bodyIndex = cursor.index();
        return this;
    }

    public short apiKey() {
        return apiKey;
    }

    public short apiVersion() {
        return apiVersion;
    }

    public int correlationId() {
        return correlationId;
    }

    /** Where the request body starts, as an index into the buffer of the frame read last. */
    public int bodyIndex() {
        return bodyIndex;
    }

    /** Whether the request names a client id at all (a null client id is allowed). */
    public boolean hasClientId() {
        return clientIdLength >= 0;
    }

    /** The client id of the frame read last ({@code frame} must be that frame), or null; allocates. */
    public String clientId(FrameView frame) {
        return clientIdLength < 0
                ? null
                : frame.buffer().toString(clientIdIndex, clientIdLength, StandardCharsets.UTF_8);
    }

    /**
     * Whether the client id of the frame read last is {@code utf8} ({@code null} for none), compared
     * in place: a connection names the same client id in every request, and this spares turning it
     * into a string each time.
     */
    public boolean clientIdEquals(FrameView frame, byte[] utf8) {
        if (utf8 == null || clientIdLength < 0) {
            return utf8 == null && clientIdLength < 0;
        }
        if (utf8.length != clientIdLength) {
            return false;
        }
        for (int i = 0; i < clientIdLength; i++) {
            if (frame.buffer().getByte(clientIdIndex + i) != utf8[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * An ApiVersions request of a version newer than Sluice handles: a broker answers such a request
     * with a version 0 response that says UNSUPPORTED_VERSION and its own range, and the client
     * retries within it. Sluice answers the same way for itself
     * ({@link ApiVersionsResponseRewriter#unsupportedVersion}) instead of forwarding the request.
     */
    public boolean isNewerApiVersions() {
        return newerApiVersions;
    }

    /** The API with this key if the pinned kafka-clients knows it and serves some version of it, else null. */
    static ApiKeys knownKey(short apiKey) {
        if (ApiKeys.hasId(apiKey)) {
            ApiKeys key = ApiKeys.forId(apiKey);
            if (key.hasValidVersion()) {
                return key;
            }
        }
        return null;
    }
}
