package io.sluice.kafka.gates;

import io.sluice.kafka.codec.RequestHeader;
import io.sluice.kafka.scopes.KafkaNames;
import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.relay.FrameView;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Who one Kafka connection is, as its topics' scopes name it: the client id its requests are
 * charged to and the principal the broker accepted. Should a client change its id, or the broker
 * accept its authentication, the {@link #generation} moves and the gates re-resolve their quotas.
 * Confined to the connection's event loop.
 */
final class ConnectionIdentity {

    private String clientId;
    private byte[] clientIdBytes;
    private String principal = KafkaScopes.ANONYMOUS;
    private int generation;

    /**
     * Notes the client id of the request whose header {@code header} just read from {@code frame}:
     * the one it is charged to ({@link KafkaNames#chargedClientId}), which moves the generation on
     * when it changes.
     */
    void clientId(FrameView frame, RequestHeader header) {
        if (generation > 0 && header.clientIdEquals(frame, clientIdBytes)) {
            return;
        }
        String named = header.clientId(frame);
        clientIdBytes = named == null ? null : named.getBytes(StandardCharsets.UTF_8);
        String charged = KafkaNames.chargedClientId(named);
        if (generation > 0 && Objects.equals(charged, clientId)) {
            return;
        }
        clientId = charged;
        generation++;
    }

    /** The connection's client id as charged; {@code null} when its requests name none. */
    String clientId() {
        return clientId;
    }

    /** The broker accepted the connection's authentication as {@code principal}: its topics are charged to it from now on. */
    void principal(String principal) {
        if (!principal.equals(this.principal)) {
            this.principal = principal;
            generation++;
        }
    }

    /** The connection's principal: {@link KafkaScopes#ANONYMOUS} until the broker accepted another. */
    String principal() {
        return principal;
    }

    /** Moves on whenever the client id or the principal changes. */
    int generation() {
        return generation;
    }
}
