package io.sluice.bench.sidebyside;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The suite's findings: as Markdown, printed as they come and written to {@code results.md}, and
 * as figures, written to {@code results.json} for {@link CompareResults}.
 */
final class Report {

    private final StringBuilder markdown = new StringBuilder();
    private final ResultFile figures = new ResultFile();

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

    /** The machine-readable figures of the run. */
    ResultFile figures() {
        return figures;
    }

    String markdown() {
        return markdown.toString();
    }

    /** Writes {@code results.md} and {@code results.json} to {@code directory}. */
    void write(Path directory) {
        write(directory, "results");
    }

    /** Writes {@code <name>.md} and {@code <name>.json} to {@code directory}. */
    void write(Path directory, String name) {
        Path file = directory.resolve(name + ".md");
        try {
            Files.writeString(file, markdown);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        figures.write(directory.resolve(name + ".json"));
    }
}
