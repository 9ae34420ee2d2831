package dev.opledger.mcp.internal;

import java.util.List;
import java.util.Map;

/** A parsed JSON value written out with the class of every value in it, to compare two readings of one message. */
final class JsonValueForms {

    private JsonValueForms() {
    }

    static String form(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Map<?, ?> map) {
            var parts = new StringBuilder(value.getClass().getSimpleName()).append('{');
            map.forEach((k, v) -> parts.append(form(k)).append('=').append(form(v)).append(','));
            return parts.append('}').toString();
        }
        if (value instanceof List<?> list) {
            var parts = new StringBuilder(value.getClass().getSimpleName()).append('[');
            list.forEach(v -> parts.append(form(v)).append(','));
            return parts.append(']').toString();
        }
        return value.getClass().getSimpleName() + ':' + value;
    }
}
