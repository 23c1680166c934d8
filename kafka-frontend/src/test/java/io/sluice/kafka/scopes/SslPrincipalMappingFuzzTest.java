package io.sluice.kafka.scopes;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sluice.testing.ByteMutator;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Arbitrary {@code --kafka-ssl-principal-mapping-rules} and subjects through
 * {@link SslPrincipalMapping}: the rules are read or refused with an {@link IllegalArgumentException}
 * (nothing else escapes), and rules that were read map any subject without an exception, the same
 * way twice. The input is the rules, a NUL, then the subject. Seeds: Kafka's documented rules.
 */
class SslPrincipalMappingFuzzTest {

    private static final int GENERATED_INPUTS = 3_000;

    @FuzzTest(maxDuration = "5m")
    void rulesAndSubjects(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        int split = text.indexOf('\0');
        String rules = split < 0 ? text : text.substring(0, split);
        String subject = split < 0 ? "CN=alice,OU=ServiceUsers,O=Example" : text.substring(split + 1);
        SslPrincipalMapping mapping;
        try {
            mapping = SslPrincipalMapping.parse(rules);
        } catch (IllegalArgumentException refused) {
            return;
        }
        assertEquals(mapping.nameOf(subject), mapping.nameOf(subject));
    }

    @Test
    void generatedInputs() {
        List<byte[]> seeds = List.of(
                bytes("DEFAULT\0CN=alice"),
                bytes("RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/,\0CN=serviceuser,OU=ServiceUsers,O=Unknown"),
                bytes("RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/L,DEFAULT"
                        + "\0CN=adminUser,OU=Admin,O=Unknown,L=Unknown,ST=Unknown,C=Unknown"),
                bytes("RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/U, DEFAULT\0cN=duke,OU=JavaSoft"),
                bytes("RULE:^CN=([^,]+)\\/(.*)$/$2\\/$12\\$/\0CN=a/b"),
                bytes("RULE:.*/x/,,DEFAULT\0"));
        new ByteMutator(20_261_205L, seeds).feed(GENERATED_INPUTS, input -> rulesAndSubjects(input));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
