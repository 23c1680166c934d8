package io.sluice.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Rows printed as aligned columns, two spaces apart, headers first: text columns flush left,
 * numeric ones flush right. An empty cell prints as {@code -}.
 */
final class TextTable {

    private final String[] headers;
    private final boolean[] right;
    private final List<String[]> rows = new ArrayList<>();

    /** @param headers column headers; one ending in {@code >} is a numeric (right-aligned) column, the mark not printed */
    TextTable(String... headers) {
        this.headers = new String[headers.length];
        this.right = new boolean[headers.length];
        for (int i = 0; i < headers.length; i++) {
            right[i] = headers[i].endsWith(">");
            this.headers[i] = right[i] ? headers[i].substring(0, headers[i].length() - 1) : headers[i];
        }
    }

    void row(String... cells) {
        if (cells.length != headers.length) {
            throw new IllegalArgumentException("expected " + headers.length + " cells, got " + cells.length);
        }
        String[] copy = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            copy[i] = cells[i] == null || cells[i].isEmpty() ? "-" : cells[i];
        }
        rows.add(copy);
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    void print(PrintWriter out) {
        int[] widths = new int[headers.length];
        for (int i = 0; i < headers.length; i++) {
            widths[i] = headers[i].length();
            for (String[] row : rows) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        line(out, headers, widths);
        rows.forEach(row -> line(out, row, widths));
    }

    private void line(PrintWriter out, String[] cells, int[] widths) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            String pad = " ".repeat(widths[i] - cells[i].length());
            if (i > 0) {
                line.append("  ");
            }
            line.append(right[i] ? pad + cells[i] : i == cells.length - 1 ? cells[i] : cells[i] + pad);
        }
        out.println(line);
    }
}
