package io.sluice.server.it.notify;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.PulsarFrameRule;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandConnect;
import io.sluice.pulsar.codec.proto.CommandLookupTopic;
import io.sluice.pulsar.codec.proto.CommandLookupTopicResponse.LookupType;
import io.sluice.pulsar.codec.proto.CommandProducer;
import io.sluice.pulsar.codec.proto.CommandThrottleProducer;
import io.sluice.pulsar.codec.proto.CommandThrottleProducerReceipt;
import io.sluice.pulsar.codec.proto.FeatureFlags;
import io.sluice.relay.FrameView;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;

/**
 * A minimal Pulsar client that implements Sluice's throttle notices (docs/PROTOCOL-EXTENSION.md),
 * for conformance tests: plain Netty and Sluice's codec, protocol version 21. It connects with or
 * without {@code supports_throttle_producer_commands}, creates producers, floods them through
 * {@link PacedProducer}, and on a ThrottleProducer either complies (pauses the producer for
 * {@code pause_for_millis} and answers with the receipt at once), or misbehaves in one of two ways
 * (see {@link NoticeHandling}).
 *
 * <p>Everything it saw is recorded for the test: notices, extension commands, problems (send
 * errors, receipts out of order, a connection closed by the other side), and how long its event
 * loop was ever kept from running, which is how late it can have answered a notice.
 */
public final class ConformanceClient implements AutoCloseable {

    /** What the client does with a ThrottleProducer. */
    public enum NoticeHandling {
        /** Pause the producer for pause_for_millis and answer ThrottleProducerReceipt at once. */
        COMPLY,
        /** Answer at once but keep sending, as a client that lies about pausing would. */
        ANSWER_WITHOUT_PAUSING,
        /** Neither pause nor answer, as a client that advertises the flag but does not implement it would. */
        IGNORE
    }

    private static final int PROTOCOL_VERSION = 21;
    private static final long TIMEOUT_SECONDS = 30;
    private static final int PONG_FIELD = 19;
    private static final long PROBE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final NoticeHandling handling;
    private final CompletableFuture<BaseCommand> connected = new CompletableFuture<>();
    private final Map<Long, CompletableFuture<BaseCommand>> requests = new ConcurrentHashMap<>();
    private final Map<Long, PacedProducer> producers = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<ThrottleNotice> notices = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
    private final AtomicInteger extensionCommands = new AtomicInteger();
    private final AtomicLong nextId = new AtomicLong();
    private final AtomicLong longestStallNanos = new AtomicLong();
    private long lastProbeNanos;
    private volatile boolean closing;
    private Channel channel;

    private ConformanceClient(NoticeHandling handling) {
        this.handling = handling;
    }

    /** Connects to a Pulsar service (Sluice or a broker) and waits for CONNECTED. */
    public static ConformanceClient connect(
            InetSocketAddress service, boolean advertisesNotices, NoticeHandling handling) throws Exception {
        ConformanceClient client = new ConformanceClient(handling);
        try {
            client.open(service, advertisesNotices);
        } catch (Exception e) {
            client.close();
            throw e;
        }
        return client;
    }

    private void open(InetSocketAddress service, boolean advertisesNotices) throws Exception {
        channel = new Bootstrap()
                .group(group)
                .channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(PulsarFrameRule.newDecoder(), new Commands());
                    }
                })
                .connect(service)
                .sync()
                .channel();
        channel.writeAndFlush(FrameWriter.encode(
                channel.alloc(),
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.CONNECT)
                        .setConnect(CommandConnect.newBuilder()
                                .setClientVersion("sluice-conformance-client")
                                .setProtocolVersion(PROTOCOL_VERSION)
                                .setFeatureFlags(FeatureFlags.newBuilder()
                                        .setSupportsThrottleProducerCommands(advertisesNotices)))
                        .build()));
        connected.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        lastProbeNanos = System.nanoTime();
        channel.eventLoop().scheduleAtFixedRate(this::probe, PROBE_NANOS, PROBE_NANOS, TimeUnit.NANOSECONDS);
    }

    /** Measures how much later than due the event loop ran this task: a stall of the client. */
    private void probe() {
        long now = System.nanoTime();
        longestStallNanos.accumulateAndGet(now - lastProbeNanos - PROBE_NANOS, Math::max);
        lastProbeNanos = now;
    }

    /**
     * Looks {@code topic} up, which makes the broker load it, then creates a producer on it over
     * this connection and waits for PRODUCER_SUCCESS; returns its producer id. The tests' broker is
     * a standalone one, so the lookup always names it: there is no redirect to follow.
     */
    public long createProducer(String topic) throws Exception {
        BaseCommand lookup = request(requestId -> BaseCommand.newBuilder()
                .setType(BaseCommand.Type.LOOKUP)
                .setLookupTopic(CommandLookupTopic.newBuilder().setTopic(topic).setRequestId(requestId))
                .build());
        if (lookup.getLookupTopicResponse().getResponse() != LookupType.Connect) {
            throw new IllegalStateException("lookup of " + topic + " answered " + lookup.getLookupTopicResponse());
        }
        long producerId = nextId.getAndIncrement();
        String name = request(requestId -> BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.PRODUCER)
                        .setProducer(CommandProducer.newBuilder()
                                .setTopic(topic)
                                .setProducerId(producerId)
                                .setRequestId(requestId))
                        .build())
                .getProducerSuccess()
                .getProducerName();
        producers.put(producerId, new PacedProducer(producerId, name, channel, problems::add));
        return producerId;
    }

    /** Writes the command {@code build} makes for a fresh request id and waits for its answer. */
    private BaseCommand request(LongFunction<BaseCommand> build) throws Exception {
        long requestId = nextId.getAndIncrement();
        CompletableFuture<BaseCommand> answer = new CompletableFuture<>();
        requests.put(requestId, answer);
        channel.writeAndFlush(FrameWriter.encode(channel.alloc(), build.apply(requestId)));
        return answer.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /** Starts flooding producer {@code producerId}: at most {@code maxInFlight} sends without receipt. */
    public void startSending(long producerId, int maxInFlight, int payloadSize) throws Exception {
        PacedProducer producer = producers.get(producerId);
        channel.eventLoop()
                .submit(() -> producer.start(maxInFlight, payloadSize))
                .get();
    }

    /** Stops sending; sends already written still get their receipts. */
    public void stopSending(long producerId) throws Exception {
        PacedProducer producer = producers.get(producerId);
        channel.eventLoop().submit(producer::stop).get();
    }

    /** Receipts producer {@code producerId} got from the broker in {@code [fromNanos, toNanos)} (System.nanoTime). */
    public long receiptsBetween(long producerId, long fromNanos, long toNanos) {
        return producers.get(producerId).receiptsBetween(fromNanos, toNanos);
    }

    public long receipts(long producerId) {
        return producers.get(producerId).receipts();
    }

    /** The ThrottleProducer commands received so far, in order. */
    public List<ThrottleNotice> notices() {
        return List.copyOf(notices);
    }

    /** Frames received whose type is one of Sluice's extension commands (200 and up). */
    public int extensionCommands() {
        return extensionCommands.get();
    }

    /** The longest the client's event loop was kept from running, in milliseconds. */
    public long longestStallMillis() {
        return TimeUnit.NANOSECONDS.toMillis(longestStallNanos.get());
    }

    /** What went wrong so far: send errors, receipts out of order, a lost connection. */
    public List<String> problems() {
        return List.copyOf(problems);
    }

    @Override
    public void close() {
        closing = true;
        if (channel != null) {
            channel.eventLoop().execute(() -> producers.values().forEach(PacedProducer::stop));
            channel.close().syncUninterruptibly();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private void onCommand(int type, BaseCommand command) {
        if (type >= BaseCommand.Type.THROTTLE_PRODUCER_VALUE) {
            extensionCommands.incrementAndGet();
        }
        switch (command.getType()) {
            case CONNECTED -> connected.complete(command);
            case PRODUCER_SUCCESS -> complete(command.getProducerSuccess().getRequestId(), command);
            case LOOKUP_RESPONSE -> complete(command.getLookupTopicResponse().getRequestId(), command);
            case ERROR -> {
                CompletableFuture<BaseCommand> request =
                        requests.remove(command.getError().getRequestId());
                IllegalStateException error = new IllegalStateException(command.getError()
                                .getError() + ": " + command.getError().getMessage());
                if (request != null) {
                    request.completeExceptionally(error);
                } else {
                    connected.completeExceptionally(error);
                    problems.add(error.getMessage());
                }
            }
            case SEND_RECEIPT -> {
                PacedProducer producer = producers.get(command.getSendReceipt().getProducerId());
                if (producer != null) {
                    producer.receipt(command.getSendReceipt().getSequenceId());
                }
            }
            case SEND_ERROR ->
                problems.add("send error " + command.getSendError().getError() + ": "
                        + command.getSendError().getMessage());
            case CLOSE_PRODUCER ->
                problems.add(
                        "broker closed producer " + command.getCloseProducer().getProducerId());
            case THROTTLE_PRODUCER -> throttle(command.getThrottleProducer());
            case PING ->
                channel.write(FrameWriter.encode(
                        channel.alloc(),
                        BaseCommand.newBuilder()
                                .setType(BaseCommand.Type.PONG)
                                // CommandPong is empty, but the field must be present; the subset does not declare it.
                                .setUnknownFields(UnknownFieldSet.newBuilder()
                                        .addField(
                                                PONG_FIELD,
                                                UnknownFieldSet.Field.newBuilder()
                                                        .addLengthDelimited(ByteString.EMPTY)
                                                        .build())
                                        .build())
                                .build()));
            default -> {}
        }
    }

    private void throttle(CommandThrottleProducer notice) {
        notices.add(new ThrottleNotice(
                notice.getRequestId(),
                notice.getProducerId(),
                notice.getThrottlingReason(),
                notice.getPauseForMillis(),
                System.nanoTime()));
        if (handling == NoticeHandling.IGNORE) {
            return;
        }
        PacedProducer producer = producers.get(notice.getProducerId());
        if (producer != null && handling == NoticeHandling.COMPLY) {
            producer.pause(notice.getPauseForMillis());
        }
        channel.write(FrameWriter.encode(
                channel.alloc(),
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.THROTTLE_PRODUCER_RECEIPT)
                        .setThrottleProducerReceipt(
                                CommandThrottleProducerReceipt.newBuilder().setRequestId(notice.getRequestId()))
                        .build()));
    }

    private void complete(long requestId, BaseCommand command) {
        CompletableFuture<BaseCommand> request = requests.remove(requestId);
        if (request != null) {
            request.complete(command);
        }
    }

    /** Decoded frames in, on the client's event loop; every frame is released here. */
    private final class Commands extends ChannelInboundHandlerAdapter {

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            FrameView frame = (FrameView) msg;
            onCommand(FrameReader.type(frame), FrameReader.parse(frame));
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (!closing) {
                problems.add("connection closed by the other side");
            }
            connected.completeExceptionally(new IllegalStateException("connection closed"));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            problems.add(cause.toString());
            ctx.close();
        }
    }
}
