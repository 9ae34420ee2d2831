/**
 * Message: {@code send_message}, with no key support: every call sends (records) one more
 * message, so a repeat is a duplicate the recipient would see. The never-repeat tool.
 */
@NullMarked
package dev.opledger.tools.message;

import org.jspecify.annotations.NullMarked;
