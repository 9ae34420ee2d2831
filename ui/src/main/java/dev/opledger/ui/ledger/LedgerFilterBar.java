package dev.opledger.ui.ledger;

import com.vaadin.flow.component.combobox.ComboBox;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.textfield.TextField;
import dev.opledger.claim.LedgerFilter;
import dev.opledger.operation.OperationStatus;
import java.util.Optional;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The ledger's filters: status, subject (exact) and operationId. Tells its listener the new
 * filter, or an empty value while an entry is malformed (the field then shows why).
 */
class LedgerFilterBar extends HorizontalLayout {

    private final ComboBox<OperationStatus> status = new ComboBox<>("Status");
    private final TextField subject = new TextField("Subject");
    private final TextField operationId = new TextField("Operation ID");
    private final Consumer<Optional<LedgerFilter>> listener;

    LedgerFilterBar(Consumer<Optional<LedgerFilter>> listener) {
        this.listener = listener;
        status.setId("filter-status");
        status.setItems(OperationStatus.values());
        status.setPlaceholder("All");
        status.setClearButtonVisible(true);

        subject.setId("filter-subject");
        subject.setPlaceholder("exact subject");
        subject.setClearButtonVisible(true);

        operationId.setId("filter-operation-id");
        operationId.setPlaceholder("UUID");
        operationId.setClearButtonVisible(true);
        operationId.setWidth("24em");

        status.addValueChangeListener(change -> changed());
        subject.addValueChangeListener(change -> changed());
        operationId.addValueChangeListener(change -> changed());

        add(status, subject, operationId);
        setAlignItems(FlexComponent.Alignment.BASELINE);
        setWrap(true);
    }

    private void changed() {
        var search = new LedgerSearch(status.getValue(), subject.getValue(), operationId.getValue());
        switch (search.parse()) {
            case LedgerSearch.Valid valid -> {
                showError(subject, null);
                showError(operationId, null);
                listener.accept(Optional.of(valid.filter()));
            }
            case LedgerSearch.Invalid invalid -> {
                showError(subject, invalid.subjectError());
                showError(operationId, invalid.operationIdError());
                listener.accept(Optional.empty());
            }
        }
    }

    private static void showError(TextField field, @Nullable String error) {
        field.setErrorMessage(error);
        field.setInvalid(error != null);
    }
}
