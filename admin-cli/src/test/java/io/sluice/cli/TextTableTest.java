package io.sluice.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TextTableTest {

    @Test
    void columnsLineUpNumbersToTheRightEmptyCellsAsDashes() {
        TextTable table = new TextTable("TOPIC", "RATE>", "ACTION");
        table.row("persistent://public/default/a", "1.2k", "delay");
        table.row("b", "7", "");
        StringWriter out = new StringWriter();
        table.print(new PrintWriter(out, true));
        assertEquals(
                List.of(
                        "TOPIC                          RATE  ACTION",
                        "persistent://public/default/a  1.2k  delay",
                        "b                                 7  -"),
                out.toString().lines().toList());
    }
}
