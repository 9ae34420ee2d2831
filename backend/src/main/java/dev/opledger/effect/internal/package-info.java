@NullMarked
package dev.opledger.effect.internal;

import org.jspecify.annotations.NullMarked;
