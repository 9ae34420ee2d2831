@NullMarked
package dev.opledger.audit.internal;

import org.jspecify.annotations.NullMarked;
