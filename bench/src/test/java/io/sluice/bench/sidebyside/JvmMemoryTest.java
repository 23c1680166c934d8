package io.sluice.bench.sidebyside;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reading jcmd's answers as OpenJDK 17 prints them (cut from a real JVM's). */
class JvmMemoryTest {

    private static final String HEAP_INFO = String.join(
            "\n",
            " garbage-first heap   total 214016K, used 98304K [0x00000000e0000000, 0x0000000100000000)",
            "  region size 1024K, 37 young (37888K), 3 survivors (3072K)",
            " Metaspace       used 20875K, committed 21248K, reserved 1114112K");

    private static final String NMT = String.join(
            "\n",
            "Native Memory Tracking:",
            "",
            "Total: reserved=7844876KB, committed=476832KB",
            "       mmap:   reserved=7834440KB, committed=466396KB",
            "-                 Java Heap (reserved=6172672KB, committed=397312KB)",
            "                            (mmap: reserved=6172672KB, committed=397312KB) ",
            "-                     Class (reserved=1048669KB, committed=221KB)",
            "                            (mmap: reserved=1048576KB, committed=128KB) ",
            "-                    Thread (reserved=21560KB, committed=1004KB)",
            "                            (stack: reserved=21504KB, committed=948KB)",
            "-                      Code (reserved=247754KB, committed=7614KB)",
            "-                        GC (reserved=267165KB, committed=52845KB)",
            "-                     Other (reserved=8200KB, committed=8200KB)",
            "-    Native Memory Tracking (reserved=111KB, committed=111KB)",
            "-                 Metaspace (reserved=65546KB, committed=650KB)",
            "                            (mmap: reserved=65536KB, committed=640KB) ");

    @Test
    void heapAndEveryKindOfNativeMemoryAreRead() {
        JvmMemory memory = JvmMemory.parse(HEAP_INFO, NMT, 36);

        assertEquals(96.0, memory.heapUsedMiB(), 1e-9);
        assertEquals(209.0, memory.heapCommittedMiB(), 1e-9);
        assertEquals(476832 / 1024.0, memory.nativeCommittedMiB(), 1e-9);
        assertEquals(388.0, memory.nativeByKind().get("Java Heap"), 1e-9);
        assertEquals(8200 / 1024.0, memory.nativeByKind().get("Other"), 1e-9);
        assertEquals(0.1083984375, memory.nativeByKind().get("Native Memory Tracking"), 1e-9);
        assertEquals("466 / 388 / 1 / 7 / 52 / 8 / 1", memory.nativeSummary());
        assertEquals(36, memory.threads());
    }

    @Test
    void withoutTrackingOnlyTheHeapIsKnown() {
        JvmMemory memory = JvmMemory.parse(HEAP_INFO, "Native memory tracking is not enabled", 36);

        assertTrue(Double.isNaN(memory.nativeCommittedMiB()));
        assertEquals("-", memory.nativeSummary());
        assertEquals(96.0, memory.heapUsedMiB(), 1e-9);
    }
}
