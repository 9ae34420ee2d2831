package dev.opledger.note;

import dev.opledger.operation.OperationId;

/**
 * Where a note's files are, as absolute paths under the server's root. The draft is the
 * operation's own ({@code .<name>.<operationId>.draft}, a name no note can have, since a note's
 * starts with a letter or digit), so two operations publishing the same name never write into
 * each other's draft, and a draft that is gone was moved by this operation.
 */
record NotePaths(String directory, String draftName, String draft, String published) {

    static NotePaths of(String root, NoteState state, OperationId operationId) {
        String directory = (root.endsWith("/") ? root : root + "/") + state.directory();
        String draftName = "." + state.name() + "." + operationId + ".draft";
        return new NotePaths(directory, draftName, directory + "/" + draftName, directory + "/" + state.name());
    }
}
