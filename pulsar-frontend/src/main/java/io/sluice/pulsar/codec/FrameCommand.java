package io.sluice.pulsar.codec;

/**
 * The command of the frame in hand, read once by {@link FrameReader#read}: its type and a copy of
 * its bytes, with where the nested command its type names (a SEND's CommandSend, a SEND_RECEIPT's
 * CommandSendReceipt) lies in them, so that a gate reading the fields of that command walks neither
 * the frame's buffer nor the outer command a second time.
 *
 * <p>Reused for every frame of one direction of one connection and confined to its event loop: what
 * one {@code read} leaves is valid until the next. Nothing here refers to the frame's buffer.
 */
public final class FrameCommand {

    /** Commands of this size or less are copied into an array the command keeps; most are 20 to 60 bytes. */
    static final int KEPT_BYTES = 256;

    private byte[] kept = new byte[64];

    /** The copy of the last command read: {@link #kept}, or an array of its own for a large one. */
    byte[] bytes;
    /** Where the command ends in {@link #bytes}, counted from the frame's first byte (the sizes included). */
    int end;

    int type;
    /**
     * Field number, start and end of the one length-delimited field of the outer command, or -1 when
     * it has none or several: then {@link FrameReader} looks for the nested command by walking the
     * copy again, with the rules that refuse a repeated one.
     */
    int onlyNestedField;

    int onlyNestedStart;
    int onlyNestedEnd;

    /** The BaseCommand type number of the last frame read. */
    public int type() {
        return type;
    }

    /** An array of at least {@code length} bytes for the next copy, which becomes {@link #bytes}. */
    byte[] room(int length) {
        if (kept.length >= length) {
            bytes = kept;
        } else {
            bytes = new byte[length];
            if (length <= KEPT_BYTES) {
                kept = bytes;
            }
        }
        return bytes;
    }
}
