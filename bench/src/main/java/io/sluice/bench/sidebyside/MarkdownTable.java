package io.sluice.bench.sidebyside;

import java.util.ArrayList;
import java.util.List;

/** A GitHub-flavoured Markdown table, built row by row. */
final class MarkdownTable {

    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    MarkdownTable(String... header) {
        this.header = List.of(header);
    }

    void row(Object... cells) {
        List<String> row = new ArrayList<>();
        for (Object cell : cells) {
            row.add(String.valueOf(cell));
        }
        rows.add(row);
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        line(out, header);
        line(out, header.stream().map(h -> "---").toList());
        rows.forEach(row -> line(out, row));
        return out.toString();
    }

    private static void line(StringBuilder out, List<String> cells) {
        out.append("| ").append(String.join(" | ", cells)).append(" |\n");
    }

    /** A number with {@code decimals} decimals, or "-" when it is not a number. */
    static String num(double value, int decimals) {
        return Double.isFinite(value) ? String.format("%." + decimals + "f", value) : "-";
    }
}
