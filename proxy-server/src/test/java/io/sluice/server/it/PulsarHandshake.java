package io.sluice.server.it;

import io.sluice.pulsar.codec.proto.BaseCommand;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A Pulsar connection's first exchange, for tests that open connections by the hundred. */
public final class PulsarHandshake {

    private PulsarHandshake() {}

    /** Sends CONNECT on {@code socket} and reads the broker's CONNECTED; throws if closed first. */
    public static void connected(Socket socket) throws IOException {
        socket.getOutputStream().write(RawPulsarClient.connectFrame());
        DataInputStream in = new DataInputStream(socket.getInputStream());
        int total = in.readInt();
        byte[] command = new byte[in.readInt()];
        in.readFully(command);
        in.skipNBytes(total - 4 - command.length);
        assertEquals(BaseCommand.Type.CONNECTED, BaseCommand.parseFrom(command).getType());
    }
}
