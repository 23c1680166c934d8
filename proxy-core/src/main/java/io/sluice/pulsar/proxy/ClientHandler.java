package io.sluice.pulsar.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.MalformedFrameException;
import io.sluice.pulsar.codec.proto.BaseCommand;

/**
 * Frames from the client: opens the upstream connection on CONNECT, keeps the producer and
 * consumer registries, and forwards every frame it does not consume to the broker unchanged.
 */
final class ClientHandler extends ChannelInboundHandlerAdapter {

    private static final int CONNECT = BaseCommand.Type.CONNECT_VALUE;
    private static final int PRODUCER = BaseCommand.Type.PRODUCER_VALUE;
    private static final int SUBSCRIBE = BaseCommand.Type.SUBSCRIBE_VALUE;
    private static final int CLOSE_PRODUCER = BaseCommand.Type.CLOSE_PRODUCER_VALUE;
    private static final int CLOSE_CONSUMER = BaseCommand.Type.CLOSE_CONSUMER_VALUE;
    private static final int SEND = BaseCommand.Type.SEND_VALUE;
    private static final int FLOW = BaseCommand.Type.FLOW_VALUE;

    private final ProxySettings settings;
    private final ProxyServices services;
    private ProxyConnection connection;

    ClientHandler(ProxySettings settings, ProxyServices services) {
        this.settings = settings;
        this.services = services;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        connection = new ProxyConnection(ctx.channel(), settings, services);
        services.stats().connectionOpened();
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        int type;
        try {
            type = FrameReader.type(frame);
        } catch (RuntimeException e) {
            frame.release();
            throw e;
        }
        if (!connection.hasBroker()) {
            if (type != CONNECT) {
                frame.release();
                throw new MalformedFrameException("no_connect", "first command was type " + type + ", not CONNECT");
            }
            connect(frame);
            return;
        }
        switch (type) {
            case SEND -> {
                connection.publish.send(frame);
                return;
            }
            case FLOW -> {
                connection.dispatch.flow(frame);
                return;
            }
            case CONNECT -> {
                frame.release();
                throw new MalformedFrameException("repeated_connect", "second CONNECT on one connection");
            }
            case PRODUCER, SUBSCRIBE, CLOSE_PRODUCER, CLOSE_CONSUMER -> track(frame);
            default -> { }
        }
        connection.toBroker(frame);
    }

    private void connect(ByteBuf frame) {
        String proxyToBrokerUrl;
        try {
            BaseCommand command = FrameReader.parse(frame);
            proxyToBrokerUrl = command.getConnect().hasProxyToBrokerUrl()
                    ? command.getConnect().getProxyToBrokerUrl() : null;
        } catch (RuntimeException e) {
            frame.release();
            throw e;
        }
        connection.connectUpstream(frame, proxyToBrokerUrl);
    }

    /** Updates the registries from a client command; the frame itself is forwarded by the caller. */
    private void track(ByteBuf frame) {
        BaseCommand command;
        try {
            command = FrameReader.parse(frame);
        } catch (RuntimeException e) {
            frame.release();
            throw e;
        }
        switch (command.getType()) {
            case PRODUCER -> connection.producers.requested(command.getProducer().getRequestId(),
                    command.getProducer().getProducerId(), command.getProducer().getTopic());
            case SUBSCRIBE -> connection.consumers.requested(command.getSubscribe().getRequestId(),
                    command.getSubscribe().getConsumerId(), command.getSubscribe().getTopic());
            case CLOSE_PRODUCER -> connection.producerClosed(command.getCloseProducer().getProducerId());
            case CLOSE_CONSUMER -> connection.consumerClosed(command.getCloseConsumer().getConsumerId());
            default -> { }
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event == Drain.REQUEST) {
            connection.drain();
        } else {
            ctx.fireUserEventTriggered(event);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        connection.flushBroker();
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        connection.clientWritabilityChanged();
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        connection.close();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        connection.fail(cause);
    }
}
