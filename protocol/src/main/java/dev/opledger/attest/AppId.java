package dev.opledger.attest;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.regex.Pattern;

/** An app, {@code <teamId>.<bundleId>}; App Attest's rpId, hashed into every authenticator data. */
public record AppId(String value) {

    // Apple's own sample app is com.apple.example_app_attest: an underscore occurs in real bundle ids
    private static final Pattern FORM = Pattern.compile("[A-Z0-9]{10}\\.[A-Za-z0-9._-]+");

    public AppId {
        if (!FORM.matcher(value).matches()) {
            throw new IllegalArgumentException("an app id is <10-character team id>.<bundle id>, not " + value);
        }
    }

    public static AppId of(String teamId, String bundleId) {
        return new AppId(teamId + "." + bundleId);
    }

    /** SHA-256 of the app id's UTF-8 bytes: the rpIdHash App Attest puts in authenticator data. */
    public byte[] rpIdHash() {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return value;
    }
}
