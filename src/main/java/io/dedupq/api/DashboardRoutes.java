package io.dedupq.api;

import io.dedupq.config.DedupqConfig;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * The dashboard page's routes: {@code /dashboard} leads to the page (static files under
 * META-INF/resources/dashboard/), {@code /} does too where {@code dedupq.dashboard.root-redirect}
 * asks for it, and with {@code dedupq.dashboard.enabled=false} the page is not served at all.
 * The page is public; its data calls carry the operator key.
 */
@ApplicationScoped
public class DashboardRoutes {

    private static final String PAGE = ApiPaths.DASHBOARD + "/";

    void register(@Observes Router router, DedupqConfig config) {
        if (!config.dashboard().enabled()) {
            // ahead of the static files, which Quarkus serves from the jar whatever the configuration
            router.routeWithRegex(ApiPaths.DASHBOARD + "(/.*)?").order(Integer.MIN_VALUE)
                    .handler(context -> context.response().setStatusCode(404).end());
            return;
        }
        // regex routes: a plain route "/dashboard" would also match "/dashboard/", the page itself
        router.getWithRegex(ApiPaths.DASHBOARD + "$").handler(DashboardRoutes::toPage);
        if (config.dashboard().rootRedirect()) {
            router.getWithRegex("/$").handler(DashboardRoutes::toPage);
        }
    }

    private static void toPage(RoutingContext context) {
        context.response().setStatusCode(303).putHeader("Location", PAGE).end();
    }
}
