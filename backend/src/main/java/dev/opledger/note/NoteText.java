package dev.opledger.note;

/**
 * What server-filesystem's edit_file does to a text, so that a check can tell an applied edit
 * from one not applied by reading the file: it reads the file with its line endings made
 * {@code \n}, replaces the first exact occurrence of {@code oldText} (also with {@code \n}
 * endings) and writes the result. (Its whitespace-tolerant fallback for an {@code oldText} that
 * does not occur exactly is never needed: {@link NoteArguments} refuses such an edit.)
 */
final class NoteText {

    private NoteText() {
    }

    static String lines(String text) {
        return text.replace("\r\n", "\n");
    }

    /** The text after the edit, as edit_file writes it. */
    static String edited(String text, String oldText, String newText) {
        String content = lines(text);
        String old = lines(oldText);
        int at = content.indexOf(old);
        if (at < 0) {
            throw new IllegalArgumentException("the edit's oldText does not occur in the text");
        }
        return content.substring(0, at) + lines(newText) + content.substring(at + old.length());
    }
}
