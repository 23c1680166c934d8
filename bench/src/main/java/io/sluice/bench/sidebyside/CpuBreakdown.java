package io.sluice.bench.sidebyside;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a process's CPU samples went, from async-profiler's collapsed stacks with thread names
 * ({@code [thread tid=N];frame;...;frame count}, kernel frames marked {@code _[k]}): each sample
 * is put in one category, by its thread (JIT compiler, GC), by the system call it is in (socket
 * writes, reads, epoll), or else by the package of the frame it was running (self time). Also
 * counts the samples with a Sluice frame anywhere on the stack (Sluice's code and what it calls).
 *
 * @param samples      all CPU samples
 * @param categories   samples per category, largest first
 * @param sluiceFrames samples with an {@code io.sluice} frame on the stack
 * @param topFrames    the frames most often running (self time), most first, at most 20
 */
record CpuBreakdown(long samples, Map<String, Long> categories, long sluiceFrames, Map<String, Long> topFrames) {

    private static final Pattern SYSCALL = Pattern.compile("__(?:x64|arm64)_sys_(\\w+)_\\[k]");

    static CpuBreakdown of(String collapsed) {
        Map<String, Long> categories = new TreeMap<>();
        Map<String, Long> leaves = new TreeMap<>();
        long samples = 0;
        long sluice = 0;
        for (String line : collapsed.split("\n")) {
            int space = line.lastIndexOf(' ');
            if (space < 0) {
                continue;
            }
            long count = Long.parseLong(line.substring(space + 1).trim());
            String[] frames = line.substring(0, space).split(";");
            samples += count;
            categories.merge(category(frames), count, Long::sum);
            leaves.merge(frames[frames.length - 1], count, Long::sum);
            if (line.contains(";io.sluice.")) {
                sluice += count;
            }
        }
        return new CpuBreakdown(samples, largestFirst(categories, Integer.MAX_VALUE), sluice, largestFirst(leaves, 20));
    }

    static String category(String[] frames) {
        String thread = frames[0];
        // Linux keeps 15 characters of a thread's name: "C2 CompilerThre".
        if (thread.startsWith("[C2 Compiler") || thread.startsWith("[C1 Compiler")) {
            return "JIT compiler threads";
        }
        if (thread.startsWith("[GC Thread") || thread.startsWith("[G1 ") || thread.startsWith("[VM Thread")) {
            return "GC and VM threads";
        }
        for (String frame : frames) {
            Matcher syscall = SYSCALL.matcher(frame);
            if (syscall.matches()) {
                return syscallCategory(syscall.group(1));
            }
        }
        String leaf = frames[frames.length - 1];
        if (leaf.endsWith("_[k]")) {
            return "kernel outside system calls (interrupts, page faults)";
        }
        if (!isJava(leaf)) {
            return "JVM runtime and native code (allocation slow paths, copies, stubs)";
        }
        if (leaf.startsWith("io.sluice.")) {
            return "Java: Sluice";
        }
        if (leaf.startsWith("io.netty.buffer.")
                || leaf.startsWith("io.netty.util.Recycler")
                || leaf.startsWith("io.netty.util.internal.PlatformDependent")) {
            return "Java: Netty buffers";
        }
        if (leaf.startsWith("io.netty.")) {
            return "Java: Netty channels, pipeline, event loop";
        }
        if (leaf.startsWith("java.") || leaf.startsWith("jdk.") || leaf.startsWith("sun.")) {
            return "Java: JDK classes";
        }
        return "Java: other (" + leaf.substring(0, Math.min(leaf.length(), 40)) + ")";
    }

    private static String syscallCategory(String name) {
        return switch (name) {
            case "write", "writev", "sendmsg", "sendto", "sendmmsg" ->
                "socket writes (system call, kernel TCP, loopback delivery)";
            case "read", "readv", "recvfrom", "recvmsg", "recvmmsg" -> "socket reads (system call, kernel TCP)";
            case "epoll_wait", "epoll_pwait", "epoll_pwait2", "epoll_ctl" -> "epoll (waiting and registering)";
            case "timerfd_settime", "timerfd_gettime" -> "timerfd (scheduling timers)";
            case "futex" -> "futex (thread wake-ups)";
            default -> "other system calls (" + name + ")";
        };
    }

    /** Java frames carry {@code _[j]} (compiled), {@code _[i]} (interpreted) or {@code _[0]}/{@code _[1]} (inlined). */
    private static boolean isJava(String frame) {
        return frame.endsWith("_[j]") || frame.endsWith("_[i]") || frame.endsWith("_[0]") || frame.endsWith("_[1]");
    }

    private static Map<String, Long> largestFirst(Map<String, Long> counts, int limit) {
        List<Map.Entry<String, Long>> sorted = counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
                .limit(limit)
                .toList();
        Map<String, Long> result = new LinkedHashMap<>();
        sorted.forEach(e -> result.put(e.getKey(), e.getValue()));
        return result;
    }

    /** The table: each category's share of the samples, then Sluice's inclusive share. */
    MarkdownTable table() {
        MarkdownTable table = new MarkdownTable("where the CPU went", "share %");
        categories.forEach((category, count) -> table.row(category, MarkdownTable.num(100.0 * count / samples, 1)));
        table.row(
                "(any of the above with a Sluice frame on the stack)",
                MarkdownTable.num(100.0 * sluiceFrames / samples, 1));
        return table;
    }

    /** The most frequent running frames. */
    MarkdownTable topFramesTable() {
        MarkdownTable table = new MarkdownTable("running frame (self)", "share %");
        topFrames.forEach(
                (frame, count) -> table.row("`" + frame + "`", MarkdownTable.num(100.0 * count / samples, 1)));
        return table;
    }
}
