package io.sluice.kafka.testing;

import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.requests.RequestHeader;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A {@link StandInBroker} on a socket: real Java producers, consumers (assigned partitions) and
 * admin clients send it their ordinary requests, which it records byte for byte; anything it does
 * not answer closes the connection. Not a broker: it exists to capture what real clients send.
 */
public final class RecordingBroker implements AutoCloseable {

    public static final String TOPIC = StandInBroker.TOPIC;

    /** One connection's traffic: each request frame, each response frame sent, size prefixes included. */
    public record Connection(List<byte[]> requests, List<Response> responses) {}

    /** A response frame with the API key and version of the request it answers. */
    public record Response(short apiKey, short apiVersion, byte[] frame) {}

    private final ServerSocket server;
    private final StandInBroker answers;
    private final List<Connection> connections = Collections.synchronizedList(new ArrayList<>());
    private final Thread acceptor;

    public RecordingBroker() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        answers = new StandInBroker("127.0.0.1", server.getLocalPort());
        acceptor = new Thread(this::accept, "recording-broker");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public String bootstrap() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    /** Every connection so far, in the order they were accepted. */
    public List<Connection> connections() {
        synchronized (connections) {
            return List.copyOf(connections);
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                Connection connection = new Connection(
                        Collections.synchronizedList(new ArrayList<>()),
                        Collections.synchronizedList(new ArrayList<>()));
                connections.add(connection);
                Thread serve = new Thread(() -> serve(socket, connection), "recording-broker-connection");
                serve.setDaemon(true);
                serve.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket socket, Connection connection) {
        try (socket;
                DataInputStream in = new DataInputStream(socket.getInputStream());
                DataOutputStream out = new DataOutputStream(socket.getOutputStream())) {
            while (true) {
                int size = in.readInt();
                byte[] frame = new byte[4 + size];
                ByteBuffer.wrap(frame).putInt(size);
                in.readFully(frame, 4, size);
                connection.requests().add(frame);
                ByteBuffer request = ByteBuffer.wrap(frame, 4, size).slice();
                RequestHeader header = RequestHeader.parse(request);
                if (!StandInBroker.answers(header.apiKey())) {
                    return;
                }
                ApiMessage response = answers.answer(header, new ByteBufferAccessor(request));
                if (response == null) {
                    continue;
                }
                byte[] bytes = KafkaFrames.frameBytes(
                        KafkaFrames.response(response, header.apiVersion(), header.correlationId()));
                connection.responses().add(new Response(header.apiKey().id, header.apiVersion(), bytes));
                out.write(bytes);
                out.flush();
            }
        } catch (EOFException | java.net.SocketException closed) {
            // The client went away.
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
