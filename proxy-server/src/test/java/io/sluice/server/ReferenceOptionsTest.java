package io.sluice.server;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The options table of docs/REFERENCE.md must say exactly what the command line does. */
class ReferenceOptionsTest {

    /** The flag of a row such as {@code | `--upstream URL` | `SLUICE_UPSTREAM` | `upstream` | (required) | ...}. */
    private static final Pattern FLAG = Pattern.compile("^`(--[a-z-]+)[^`]*`$");

    @Test
    void everyOptionIsInTheReferenceWithItsEnvironmentVariableYamlKeyAndDefault() throws Exception {
        Map<String, String> documented = new TreeMap<>();
        for (String line : Files.readAllLines(Path.of("..", "docs", "REFERENCE.md"))) {
            String[] cells = line.split("\\|");
            Matcher flag;
            if (cells.length > 5 && (flag = FLAG.matcher(cells[1].trim())).matches()) {
                documented.put(flag.group(1), unquote(cells[2]) + " " + unquote(cells[3]) + " " + cells[4].trim());
            }
        }
        Map<String, String> actual = new TreeMap<>();
        for (OptionSpec option :
                new CommandLine(new SluiceCommand()).getCommandSpec().options()) {
            String name = option.longestName();
            if (option.usageHelp() || option.versionHelp()) {
                continue;
            }
            String yaml = name.equals("--config") ? "" : ConfigSources.yamlKey(name);
            String defaultValue = option.defaultValue() == null ? null : "`" + option.defaultValue() + "`";
            actual.put(name, ConfigSources.envName(name) + " " + yaml + " " + defaultValue);
        }
        // Options without a built-in default document what applies instead.
        documented.replaceAll((name, row) -> row.replaceFirst(
                " \\(required\\)$| none$| the upstream's `host:port`$"
                        + "| the JDK's trust store$"
                        + "| the listen host \\(the machine's name if that is a wildcard\\)$| the listen port \\+ 1$"
                        + "| a quarter of the direct memory$",
                " null"));
        assertEquals(actual, documented);
    }

    private static String unquote(String cell) {
        return cell.trim().replace("`", "");
    }
}
