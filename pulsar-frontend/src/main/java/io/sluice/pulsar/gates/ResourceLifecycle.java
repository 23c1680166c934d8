package io.sluice.pulsar.gates;

import io.sluice.limits.Direction;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.TopicQuota;
import io.sluice.status.ClientIdentity;
import io.sluice.status.CurrentThrottle;
import io.sluice.status.IdentityField;
import io.sluice.status.ThrottleSubject;

/**
 * The life of one connection's producers (or consumers) as the connection sees it go by: the
 * client's PRODUCER or SUBSCRIBE forwarded, the broker's answer, a close from either side. The
 * connection reports each step here; the {@link ResourceRegistry} keeps the ids exact, and the gate
 * that meters them ({@link PublishGate}, {@link DispatchGate}) hears of each resource that turns
 * active and of each that goes ({@link Gate}). A resource turns active with its topic's quota in the
 * gate's direction and its throttle record, both charged to the role the broker accepted for the
 * connection and naming the client's address and the resource's id.
 *
 * <p>Confined to the connection's event loop.
 *
 * @param <T> the gate's state of an active resource
 */
public final class ResourceLifecycle<T> {

    /** The side of a gate that keeps a state per active resource. */
    interface Gate<T> {

        /** The state of resource {@code id}, active from now on, metered by {@code quota} and recorded by {@code throttle}. */
        T active(long id, TopicQuota quota, CurrentThrottle throttle);

        /** {@code state}, just made by {@link #active}, is in the registry: the gate may act on it. */
        default void created(T state) {}

        /** Resource {@code id} was closed, or the request creating it refused: what waits for it is dropped. */
        default void forgotten(long id) {}

        /** The active resource {@code state} is gone: closed, migrated, or its connection closing. */
        void gone(T state);
    }

    private final ProxyServices services;
    private final String clientAddress;
    private final Direction direction;
    private final IdentityField idField;
    private final Gate<T> gate;
    private final ResourceRegistry<T> registry = new ResourceRegistry<>(this::activate);
    /** The role the broker accepted for the connection; {@code null} until then or without one. */
    private String role;

    /**
     * @param clientAddress the client's address, as {@code /api/v1/throttled} shows it
     * @param direction     what the gate meters: publish for producers, dispatch for consumers
     * @param idField       the identity field a resource's id is recorded as
     */
    ResourceLifecycle(
            ProxyServices services, String clientAddress, Direction direction, IdentityField idField, Gate<T> gate) {
        this.services = services;
        this.clientAddress = clientAddress;
        this.direction = direction;
        this.idField = idField;
        this.gate = gate;
    }

    /** True when the connection has as many of them, requested and active, as Sluice keeps for one. */
    public boolean isFull() {
        return registry.isFull();
    }

    /** True while a request with id {@code requestId} to create one has no answer from the broker. */
    public boolean isRequestPending(long requestId) {
        return registry.isRequestPending(requestId);
    }

    /** True while resource {@code id} is being created: its request has no answer yet. */
    public boolean isPending(long id) {
        return registry.isPending(id);
    }

    /**
     * The client's request {@code requestId} to create resource {@code id} on {@code topic} is
     * forwarded; neither the request id nor the resource id is pending.
     */
    public void requested(long requestId, long id, String topic) {
        registry.requested(requestId, id, topic);
    }

    /** The broker's success for request {@code requestId}: the resource is active from now on. */
    public void succeeded(long requestId) {
        T state = registry.succeeded(requestId);
        if (state != null) {
            gate.created(state);
        }
    }

    /** The broker's ERROR for request {@code requestId}; a request of another kind is ignored. */
    public void failed(long requestId) {
        long id = registry.failed(requestId);
        if (id != -1) {
            gate.forgotten(id);
        }
    }

    /** Resource {@code id} is closed, by either side or by a migration. */
    public void closed(long id) {
        gate.forgotten(id);
        T state = registry.closed(id);
        if (state != null) {
            gate.gone(state);
        }
    }

    /**
     * The broker accepted the connection as {@code role} (its CONNECTED): every resource made from
     * now on is charged to that role too.
     */
    public void authenticated(String role) {
        this.role = role;
    }

    /** The ids of the connection's resources and their states, for the gate. */
    ResourceRegistry<T> registry() {
        return registry;
    }

    /** The connection closes: every active resource is gone. */
    void closeAll() {
        registry.clear().forEach(gate::gone);
    }

    private T activate(long id, String topic) {
        TopicQuota quota = new TopicQuota(
                services.quotas(),
                services.topics(),
                direction,
                PulsarScopes.PROTOCOL,
                topic,
                PulsarScopes.topic(topic, role));
        CurrentThrottle throttle = new CurrentThrottle(
                services.throttles(),
                new ThrottleSubject(
                        PulsarScopes.PROTOCOL,
                        clientAddress,
                        topic,
                        ClientIdentity.of(PulsarScopes.ROLE_FIELD.of(role), idField.of(id))));
        return gate.active(id, quota, throttle);
    }
}
