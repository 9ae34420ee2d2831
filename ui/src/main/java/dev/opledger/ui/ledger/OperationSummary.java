package dev.opledger.ui.ledger;

import com.vaadin.flow.component.html.DescriptionList;
import com.vaadin.flow.component.html.Span;
import dev.opledger.claim.OperationDetail;
import dev.opledger.claim.OperationState;
import dev.opledger.ui.Formats;

/** An operation's fields as a description list; each value has an id {@code detail-<field>}. */
class OperationSummary extends DescriptionList {

    OperationSummary(OperationDetail detail) {
        setId("operation-summary");
        OperationState operation = detail.operation();
        entry("Subject", "subject", operation.subject().value());
        entry("Operation ID", "operation-id", operation.operationId().toString());
        entry("Type", "type", operation.type());
        entry("Status", "status", operation.status().name());
        entry("Attested", "attested", Formats.yesNo(detail.attested()));
        entry("Payload hash (SHA-256)", "payload-hash", operation.payloadHash().hex());
        entry("Created", "created", Formats.instant(operation.createdAt()));
        entry("Updated", "updated", Formats.instant(operation.updatedAt()));
        getStyle().set("display", "grid").set("grid-template-columns", "max-content 1fr").set("gap", "0.25rem 1rem");
    }

    private void entry(String term, String id, String value) {
        var text = new Span(value);
        text.setId("detail-" + id);
        var description = new Description(text);
        description.getStyle().set("margin", "0").set("font-family", "monospace");
        add(new Term(term), description);
    }
}
