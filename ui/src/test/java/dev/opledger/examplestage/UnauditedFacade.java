package dev.opledger.examplestage;

import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** A deliberately bad façade for ConsoleFacadeRulesTest: role-checked, writes, audits nothing. */
@Service
@PreAuthorize("hasRole('SUPPORT')")
public class UnauditedFacade {

    @Transactional
    public void change() {
        // writes nothing: the rule looks at the annotations and the calls only
    }
}
