/**
 * Replay from a checkpoint, guarded by effect records (issue 12): a dry run says, for every effect
 * recorded after the chosen checkpoint, what a replay will do with it (served from its record,
 * called again as its class allows, or blocked); an admin starts the replay bound to that dry run
 * ({@link dev.opledger.replay.ReplayService}, role-checked and audited), which forks the
 * operation's graph from the checkpoint and hands it to the workers, whose effect gateway follows
 * the records and the dry run's guards. docs/replay.md.
 */
@NullMarked
package dev.opledger.replay;

import org.jspecify.annotations.NullMarked;
