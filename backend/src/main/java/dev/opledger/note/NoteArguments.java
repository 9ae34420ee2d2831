package dev.opledger.note;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * A {@code publish-note} command's arguments (see {@code operation-types/publish-note.schema.json}).
 * The API checks them against the schema before the claim; this reading checks again what the
 * graph relies on, and what a schema cannot say: that the edit's {@code oldText} occurs in the
 * text and that the edit changes it. So a note whose edit could not apply fails before anything
 * is written.
 *
 * @param directory the note's directory, relative to the server's root ({@code notes/2026})
 * @param name the note's file name in it ({@code release.md})
 */
record NoteArguments(String directory, String name, String text, String oldText, String newText) {

    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Segments that start with a letter or digit: no {@code .}, {@code ..}, hidden files, nor absolute paths. */
    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

    NoteArguments {
        for (String segment : directory.split("/", -1)) {
            if (!SEGMENT.matcher(segment).matches()) {
                throw new IllegalArgumentException("'directory' must be a relative path of names that start with "
                        + "a letter or digit, e.g. notes/2026");
            }
        }
        if (!SEGMENT.matcher(name).matches()) {
            throw new IllegalArgumentException("'name' must be a file name that starts with a letter or digit, e.g. release.md");
        }
        if (oldText.isEmpty()) {
            throw new IllegalArgumentException("'edit.oldText' must not be empty");
        }
        if (!NoteText.lines(text).contains(NoteText.lines(oldText))) {
            throw new IllegalArgumentException("'edit.oldText' does not occur in 'text'");
        }
        if (NoteText.lines(oldText).equals(NoteText.lines(newText))) {
            throw new IllegalArgumentException("the edit changes nothing: 'edit.newText' is 'edit.oldText'");
        }
    }

    /**
     * @param command the whole command, {@code {"type":"publish-note","arguments":{…}}}
     * @throws IllegalArgumentException naming what is missing or wrong
     */
    static NoteArguments fromCommand(String command) {
        Map<String, Object> root;
        try {
            root = JSON.readValue(command, OBJECT);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("the command is not a JSON object");
        }
        if (!(root.get("arguments") instanceof Map<?, ?> arguments)) {
            throw new IllegalArgumentException("the command has no arguments object");
        }
        if (!(arguments.get("edit") instanceof Map<?, ?> edit)) {
            throw new IllegalArgumentException("'edit' must be an object with oldText and newText");
        }
        return new NoteArguments(text(arguments, "directory"), text(arguments, "name"), text(arguments, "text"),
                text(edit, "oldText", "edit.oldText"), text(edit, "newText", "edit.newText"));
    }

    /** The graph's input. */
    Map<String, Object> asState() {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put(NoteState.DIRECTORY, directory);
        state.put(NoteState.NAME, name);
        state.put(NoteState.TEXT, text);
        state.put(NoteState.OLD_TEXT, oldText);
        state.put(NoteState.NEW_TEXT, newText);
        return state;
    }

    private static String text(Map<?, ?> arguments, String name) {
        return text(arguments, name, name);
    }

    private static String text(Map<?, ?> arguments, String name, String shown) {
        if (arguments.get(name) instanceof String text) {
            return text;
        }
        throw new IllegalArgumentException("'" + shown + "' must be a string");
    }
}
