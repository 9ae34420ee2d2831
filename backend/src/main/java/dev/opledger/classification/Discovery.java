package dev.opledger.classification;

import org.jspecify.annotations.Nullable;

/**
 * One discovery of a server's tools.
 *
 * @param listed how many tools it listed
 * @param added how many the registry did not know
 * @param flagged how many changes it flagged for review (new or still open)
 * @param error why the server could not be listed; null when it was
 */
public record Discovery(String server, int listed, int added, int flagged, @Nullable String error) {

    public boolean succeeded() {
        return error == null;
    }
}
