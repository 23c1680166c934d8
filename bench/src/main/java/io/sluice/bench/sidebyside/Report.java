package io.sluice.bench.sidebyside;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The suite's findings as Markdown, printed as they come and written to {@code results.md}. */
final class Report {

    private final StringBuilder markdown = new StringBuilder();

    void heading(String title) {
        add("\n### " + title + "\n");
    }

    void text(String paragraph) {
        add(paragraph + "\n");
    }

    void table(MarkdownTable table) {
        add(table.toString());
    }

    private void add(String text) {
        markdown.append(text).append('\n');
        System.out.println(text);
    }

    String markdown() {
        return markdown.toString();
    }

    void write(Path file) {
        try {
            Files.writeString(file, markdown);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
