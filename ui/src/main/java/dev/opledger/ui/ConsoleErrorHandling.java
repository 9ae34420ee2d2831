package dev.opledger.ui;

import com.vaadin.flow.server.ServiceInitEvent;
import com.vaadin.flow.server.VaadinServiceInitListener;
import org.springframework.stereotype.Component;

/** Installs {@link ConsoleErrorHandler} in every console session. */
@Component
class ConsoleErrorHandling implements VaadinServiceInitListener {

    @Override
    public void serviceInit(ServiceInitEvent event) {
        event.getSource().addSessionInitListener(init -> init.getSession().setErrorHandler(new ConsoleErrorHandler()));
    }
}
