package io.sluice.kafka.gates;

import io.sluice.kafka.codec.ShareFetchRequestReader;
import io.sluice.relay.FrameView;

/**
 * What the ShareFetch request in hand asks for at most, its {@code max_bytes} and
 * {@code max_records}, and where in its bytes each lies, so that the {@link ShareFetchGate} can
 * lower them in place: at once, or when the request it held is let go (the request stays in hand
 * while held, since nothing behind it is read meanwhile). One instance per gate, reused.
 *
 * <p>Confined to the connection's event loop.
 */
final class ShareFetchMaxima {

    private int maxBytes;
    private int maxRecords;
    private int maxBytesOffset;
    private int maxRecordsOffset;

    /** The request {@code reader} just read is the one in hand. */
    void readFrom(ShareFetchRequestReader reader) {
        maxBytes = reader.maxBytes();
        maxRecords = reader.maxRecords();
        maxBytesOffset = reader.maxBytesOffset();
        maxRecordsOffset = reader.maxRecordsOffset();
    }

    /**
     * Lowers the {@code max_records} and {@code max_bytes} of the request in hand, {@code frame}
     * (the request read, or a slice of it of its own), in its bytes, to {@code records} and
     * {@code bytes} where it asks for more, never below one.
     */
    void lower(FrameView frame, long records, long bytes) {
        if (records < maxRecords) {
            ShareFetchRequestReader.setField(frame, maxRecordsOffset, (int) Math.max(1, records));
        }
        if (bytes < maxBytes) {
            ShareFetchRequestReader.setField(frame, maxBytesOffset, (int) Math.max(1, bytes));
        }
    }
}
