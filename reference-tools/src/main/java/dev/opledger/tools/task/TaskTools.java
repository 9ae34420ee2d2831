package dev.opledger.tools.task;

import org.springframework.context.annotation.Import;

/** The task store and runner, for the application to import (not a component: never scanned by a node). */
@Import({TaskStore.class, TaskRunner.class})
public final class TaskTools {

    TaskTools() {
    }
}
