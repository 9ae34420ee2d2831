@NullMarked
package dev.opledger.classification.internal;

import org.jspecify.annotations.NullMarked;
