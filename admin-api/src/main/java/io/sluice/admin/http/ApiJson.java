package io.sluice.admin.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;

import java.io.UncheckedIOException;
import java.time.Instant;

/**
 * The JSON form of API responses other than limits (which {@link io.sluice.limits.LimitsJson}
 * writes): pretty, absent values left out, instants in ISO-8601 ({@code 2025-01-31T12:00:00Z}).
 */
public final class ApiJson {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .defaultPropertyInclusion(
                    JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.NON_NULL))
            .addModule(new SimpleModule("instants").addSerializer(Instant.class, ToStringSerializer.instance))
            .enable(SerializationFeature.INDENT_OUTPUT)
            .build();

    private ApiJson() {}

    /** {@code value} as UTF-8 JSON. */
    public static byte[] write(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            // Only records, lists, maps, strings and numbers are written.
            throw new UncheckedIOException(e);
        }
    }
}
