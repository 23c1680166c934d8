package io.sluice.pulsar.gates;

import io.netty.buffer.ByteBuf;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.relay.ConnectionBudget;
import io.sluice.relay.FrameView;
import io.sluice.relay.WakeUps;
import io.sluice.testing.GateWorld;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A Pulsar gate's world without a broker or sockets ({@link GateWorld}), with a read pause that
 * records what the connection budget asks for. Frames kept here are released by {@link #close}.
 */
final class GateHarness extends GateWorld implements ConnectionBudget.Pause, AutoCloseable {

    static final Duration RECEIPT_WINDOW = Duration.ofMillis(100);

    /** The buffers of lent frames forwarded upstream, to tell the very bytes from a copy; not retained. */
    final List<ByteBuf> lentUpstream = new ArrayList<>();

    final List<ConnectionBudget.Breach> pauses = new ArrayList<>();
    int resumes;
    /** The connection's one timer, which the gates made here share. */
    final WakeUps timers = new WakeUps(loop, services.quotas().clock());

    GateHarness() {
        super("pulsar");
    }

    PublishGate publishGate() {
        return new PublishGate(
                this, services.quotas().clock(), timers, services, "10.0.0.1:5000", RECEIPT_WINDOW, this);
    }

    DispatchGate dispatchGate() {
        return new DispatchGate(this, timers, services.quotas().clock(), services, "10.0.0.1:5000");
    }

    /** A request gate of a client at 127.0.0.1 whose held requests, once due, go to {@code passOn}. */
    RequestGate requestGate(Consumer<ByteBuf> passOn) {
        return new RequestGate(
                this,
                timers,
                services.quotas().clock(),
                services,
                "127.0.0.1:5000",
                InetAddress.getLoopbackAddress(),
                passOn);
    }

    /** The client-bound frames so far, parsed, and released. */
    List<BaseCommand> takeClientCommands() {
        List<BaseCommand> commands = new ArrayList<>();
        for (ByteBuf frame : client) {
            commands.add(FrameReader.parse(FrameView.of(frame)));
            frame.release();
        }
        client.clear();
        return commands;
    }

    /** The broker-bound frames so far, as the BaseCommand types and sequence ids of their SENDs, released. */
    List<Long> takeForwardedSequenceIds() {
        List<Long> ids = new ArrayList<>();
        for (ByteBuf frame : upstream) {
            BaseCommand command = FrameReader.parse(FrameView.of(frame));
            ids.add(
                    command.hasSend()
                            ? command.getSend().getSequenceId()
                            : -command.getType().getNumber());
            frame.release();
        }
        upstream.clear();
        return ids;
    }

    @Override
    public void toUpstream(FrameView frame) {
        lentUpstream.add(frame.buffer());
        upstream.add(frame.retainedSlice());
    }

    @Override
    public void toClient(FrameView frame) {
        client.add(frame.retainedSlice());
    }

    /** Lends {@code frame} to {@code gate} as the frame decoder would, then lets go of it as the decoder does. */
    static void lend(ByteBuf frame, Consumer<FrameView> gate) {
        try {
            gate.accept(FrameView.of(frame));
        } finally {
            frame.release();
        }
    }

    @Override
    public void pause(ConnectionBudget.Breach breach) {
        pauses.add(breach);
    }

    @Override
    public void resume() {
        resumes++;
    }

    @Override
    public void close() {
        releaseAll();
    }
}
