package dev.opledger.ui.ledger;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.router.QueryParameters;
import com.vaadin.flow.router.RouteParameters;
import com.vaadin.flow.router.RouterLink;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;

/**
 * Ways into {@link OperationView}. {@code operations/<operationId>} alone opens an operation
 * (operationIds are unique across subjects); the console's own links also carry the subject as the
 * query parameter {@code subject}, so the link says whose operation it is and the view reads it by
 * subject and operationId, as the API does.
 */
public final class OperationLink {

    private OperationLink() {
    }

    /** A link showing the operationId that opens the operation. */
    public static RouterLink to(SubjectId subject, OperationId operationId) {
        var link = new RouterLink(operationId.toString(), OperationView.class, route(operationId));
        link.setQueryParameters(query(subject));
        return link;
    }

    /** Navigates the current UI to the operation. */
    public static void open(SubjectId subject, OperationId operationId) {
        UI.getCurrent().navigate(OperationView.class, route(operationId), query(subject));
    }

    private static RouteParameters route(OperationId operationId) {
        return new RouteParameters(OperationView.OPERATION_ID, operationId.toString());
    }

    private static QueryParameters query(SubjectId subject) {
        return QueryParameters.of(OperationView.SUBJECT, subject.value());
    }
}
