package io.sluice.kafka.scopes;

import io.sluice.limits.IdentityName;

import javax.security.auth.x500.X500Principal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code --kafka-ssl-principal-mapping-rules}: how the subject of a client certificate on Sluice's
 * Kafka port becomes the connection's principal, in the syntax of Kafka's
 * {@code ssl.principal.mapping.rules} (docs/KAFKA.md, "Principals"). The subject is taken in RFC 2253
 * form ({@code CN=alice,OU=ServiceUsers,O=Example}); the rules are tried in order and the first that
 * applies names the user, the principal being {@code User:<name>}:
 * <ul>
 *   <li>{@code DEFAULT}: the subject itself;</li>
 *   <li>{@code RULE:pattern/replacement/}, optionally followed by {@code L} or {@code U}: when the
 *       Java regular expression {@code pattern} matches the whole subject, every match of it in the
 *       subject is replaced by {@code replacement} ({@code $1} a group, {@code \x} the character
 *       {@code x}), then turned to lower ({@code L}) or upper ({@code U}) case; a {@code /} inside
 *       either is written {@code \/}.</li>
 * </ul>
 * Rules are separated by commas (and optional spaces); a comma inside a pattern belongs to it.
 * Unlike Kafka, a replacement that could only fail when applied (a {@code $} naming no group, a
 * named group {@code ${name}}, a trailing backslash) is refused when the rules are read. A
 * subject no rule applies to is {@code User:ANONYMOUS}, as is a name that is no valid identity.
 *
 * <p>Immutable and thread-safe; applied once per connection, never per message.
 */
public final class SslPrincipalMapping {

    /** The rules unless {@code --kafka-ssl-principal-mapping-rules} says otherwise: the subject as it is. */
    public static final String DEFAULT_RULES = "DEFAULT";

    private static final String DEFAULT = "DEFAULT";
    private static final String RULE = "RULE:";
    private static final String PRINCIPAL_TYPE = "User:";

    private final List<Rule> rules;
    private final String text;

    private SslPrincipalMapping(List<Rule> rules, String text) {
        this.rules = List.copyOf(rules);
        this.text = text;
    }

    /** The mapping {@code DEFAULT}: the subject is the user name. */
    public static SslPrincipalMapping byDefault() {
        return parse(DEFAULT_RULES);
    }

    /**
     * Reads {@code rules}.
     *
     * @throws IllegalArgumentException naming the rule that cannot be read and why
     */
    public static SslPrincipalMapping parse(String rules) {
        if (rules == null) {
            throw new IllegalArgumentException("must hold at least one rule, e.g. DEFAULT");
        }
        List<Rule> parsed = new ArrayList<>();
        int at = skipSpaces(rules, 0);
        while (at < rules.length()) {
            int end;
            if (rules.startsWith(DEFAULT, at)) {
                parsed.add(Rule.DEFAULT);
                end = at + DEFAULT.length();
            } else if (rules.startsWith(RULE, at)) {
                int patternEnd = unescapedSlash(rules, at + RULE.length());
                int replacementEnd = patternEnd < 0 ? -1 : unescapedSlash(rules, patternEnd + 1);
                if (replacementEnd < 0) {
                    throw invalid(rules, at, "a rule is RULE:pattern/replacement/ with an optional L or U");
                }
                end = replacementEnd + 1;
                char caseChange = end < rules.length() ? rules.charAt(end) : ' ';
                if (caseChange == 'L' || caseChange == 'U') {
                    end++;
                } else {
                    caseChange = ' ';
                }
                parsed.add(Rule.of(
                        rules.substring(at + RULE.length(), patternEnd),
                        rules.substring(patternEnd + 1, replacementEnd),
                        caseChange,
                        rules.substring(at, end)));
            } else if (rules.charAt(at) == ',') {
                // An empty rule, as Kafka ignores one.
                end = at;
            } else {
                throw invalid(rules, at, "a rule starts with DEFAULT or RULE:");
            }
            at = skipSpaces(rules, end);
            if (at < rules.length()) {
                if (rules.charAt(at) != ',') {
                    throw invalid(rules, at, "rules are separated by commas");
                }
                at = skipSpaces(rules, at + 1);
            }
        }
        if (parsed.isEmpty()) {
            throw new IllegalArgumentException("must hold at least one rule, e.g. DEFAULT");
        }
        return new SslPrincipalMapping(parsed, rules.trim());
    }

    /**
     * The principal of a connection whose client certificate's subject is {@code subject}:
     * {@code User:} and the user name the first applying rule makes of the subject in RFC 2253 form,
     * {@link KafkaScopes#ANONYMOUS} when no rule applies or the name is no valid identity (too long,
     * control characters).
     */
    public String principalOf(X500Principal subject) {
        String name = nameOf(subject.getName(X500Principal.RFC2253));
        String principal = name == null ? null : PRINCIPAL_TYPE + name;
        return principal != null && IdentityName.isValid(principal) ? principal : KafkaScopes.ANONYMOUS;
    }

    /** The user name of the first rule that applies to {@code distinguishedName} (RFC 2253), or {@code null}. */
    public String nameOf(String distinguishedName) {
        for (Rule rule : rules) {
            String name = rule.apply(distinguishedName);
            if (name != null) {
                return name;
            }
        }
        return null;
    }

    /** The rules as they were given, for the startup log. */
    @Override
    public String toString() {
        return text;
    }

    private static int skipSpaces(String text, int from) {
        int at = from;
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
        return at;
    }

    /** The index of the first {@code /} from {@code from} that no backslash escapes, or -1. */
    private static int unescapedSlash(String text, int from) {
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '/') {
                return i;
            }
        }
        return -1;
    }

    private static IllegalArgumentException invalid(String rules, int at, String why) {
        return new IllegalArgumentException(why + ", at " + (at + 1) + " of " + rules);
    }

    /** One rule: {@code DEFAULT}, or a pattern, its replacement and a case change. */
    private record Rule(Pattern pattern, List<Part> replacement, char caseChange, String text) {

        static final Rule DEFAULT = new Rule(null, List.of(), ' ', SslPrincipalMapping.DEFAULT);

        static Rule of(String pattern, String replacement, char caseChange, String text) {
            Pattern compiled;
            try {
                compiled = Pattern.compile(pattern);
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException(
                        text + ": the pattern is not a regular expression: " + e.getDescription());
            }
            int groups = compiled.matcher("").groupCount();
            try {
                return new Rule(compiled, Part.parse(replacement, groups), caseChange, text);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(text + ": " + e.getMessage());
            }
        }

        /** The name this rule makes of {@code subject}, or {@code null} when the pattern does not match all of it. */
        String apply(String subject) {
            if (pattern == null) {
                return subject;
            }
            Matcher matcher = pattern.matcher(subject);
            if (!matcher.matches()) {
                return null;
            }
            // Every match replaced, as Kafka's String.replaceAll does (a pattern that may match
            // nothing matches once more at the end).
            matcher.reset();
            StringBuilder name = new StringBuilder();
            int last = 0;
            while (matcher.find()) {
                name.append(subject, last, matcher.start());
                for (Part part : replacement) {
                    part.appendTo(name, matcher);
                }
                last = matcher.end();
            }
            name.append(subject, last, subject.length());
            return switch (caseChange) {
                case 'L' -> name.toString().toLowerCase(Locale.ENGLISH);
                case 'U' -> name.toString().toUpperCase(Locale.ENGLISH);
                default -> name.toString();
            };
        }
    }

    /** A piece of a replacement: literal text, or the text a group matched. */
    private record Part(String literal, int group) {

        void appendTo(StringBuilder name, Matcher matcher) {
            if (literal != null) {
                name.append(literal);
            } else {
                String matched = matcher.group(group);
                if (matched != null) {
                    name.append(matched);
                }
            }
        }

        /**
         * {@code replacement} as Java's {@link Matcher#replaceAll} reads it, for a pattern of
         * {@code groups} groups: {@code \x} is {@code x}; {@code $} and a digit name a group, further
         * digits joining the number while it stays a group; a {@code $} whose first digit names no
         * group is literal, as Kafka makes it.
         */
        static List<Part> parse(String replacement, int groups) {
            List<Part> parts = new ArrayList<>();
            StringBuilder literal = new StringBuilder();
            int i = 0;
            while (i < replacement.length()) {
                char c = replacement.charAt(i);
                if (c == '\\') {
                    if (i + 1 == replacement.length()) {
                        throw new IllegalArgumentException("the replacement ends with a backslash");
                    }
                    literal.append(replacement.charAt(i + 1));
                    i += 2;
                } else if (c == '$') {
                    int digit = i + 1 < replacement.length() ? digit(replacement.charAt(i + 1)) : -1;
                    if (digit < 0) {
                        throw new IllegalArgumentException(
                                "a $ in the replacement names a group by number ($1) or is written \\$");
                    }
                    if (groups == 0) {
                        throw new IllegalArgumentException("the replacement names a group the pattern does not have");
                    }
                    if (digit > groups) {
                        literal.append('$');
                        i++;
                        continue;
                    }
                    int group = digit;
                    i += 2;
                    while (i < replacement.length()) {
                        int next = digit(replacement.charAt(i));
                        if (next < 0 || group * 10 + next > groups) {
                            break;
                        }
                        group = group * 10 + next;
                        i++;
                    }
                    if (!literal.isEmpty()) {
                        parts.add(new Part(literal.toString(), 0));
                        literal.setLength(0);
                    }
                    parts.add(new Part(null, group));
                } else {
                    literal.append(c);
                    i++;
                }
            }
            if (!literal.isEmpty()) {
                parts.add(new Part(literal.toString(), 0));
            }
            return parts;
        }

        /** An ASCII digit's value, else -1: what Java's replacement syntax takes for a group number. */
        private static int digit(char c) {
            return c >= '0' && c <= '9' ? c - '0' : -1;
        }
    }
}
