package com.example.shop;

import io.dedupq.sql.TransactionalTaskQueue;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Orders: the order row, its charge task and the stock reservation commit together or not at
 * all. The task goes to dedupq's outbox in the order's transaction
 * ({@link TransactionalTaskQueue}), so an order rolled back (out of stock) is never charged and a
 * committed one always is, whenever the pod dies.
 */
@Path("/shop/orders")
public class OrderResource {

    /** What a client orders; the id is the client's, so that the order and its task id are known before the call. */
    public record NewOrder(String id, String item, int quantity) {
    }

    public record ChargeRow(int amountCents, long fencingToken) {
    }

    private final DataSource dataSource;
    private final TransactionalTaskQueue outbox;

    public OrderResource(DataSource dataSource, TransactionalTaskQueue outbox) {
        this.dataSource = dataSource;
        this.outbox = outbox;
    }

    /** 201 with the order; 409 when the item is out of stock (nothing kept); 400 naming the field. */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response place(NewOrder order) throws SQLException {
        Response invalid = invalid(order);
        if (invalid != null) {
            return invalid;
        }
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                Integer price = price(connection, order.item());
                if (price == null) {
                    connection.rollback();
                    return problem(400, "item", "no such item: " + order.item());
                }
                if (!insertOrder(connection, order)) {
                    connection.rollback();
                    return problem(409, "id", "order " + order.id() + " exists");
                }
                outbox.enqueueInTransaction(connection, "pay-" + order.id(), "charge",
                        new Charge(order.id(), price * order.quantity()));
                // reserved last: running out of stock rolls back the order and its task alike
                if (!reserve(connection, order)) {
                    connection.rollback();
                    return problem(409, "quantity", order.item() + " has fewer than " + order.quantity() + " left");
                }
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
        return Response.status(201).entity(Map.of("id", order.id(), "task", "pay-" + order.id())).build();
    }

    /** The charges written for the order: one once its task ran, none for an order that was never placed. */
    @GET
    @Path("/{id}/charges")
    public List<ChargeRow> charges(@PathParam("id") String id) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT amount_cents, fencing_token FROM charges WHERE order_id = ?")) {
            select.setString(1, id);
            List<ChargeRow> rows = new ArrayList<>();
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    rows.add(new ChargeRow(row.getInt(1), row.getLong(2)));
                }
            }
            return rows;
        }
    }

    private static Response invalid(NewOrder order) {
        if (order == null) {
            return problem(400, "body", "an order is required");
        }
        if (order.id() == null || !order.id().matches("[A-Za-z0-9-]{1,64}")) {
            return problem(400, "id", "1 to 64 letters, digits or '-'");
        }
        if (order.item() == null || order.item().isBlank()) {
            return problem(400, "item", "required");
        }
        if (order.quantity() < 1 || order.quantity() > 100) {
            return problem(400, "quantity", "1 to 100");
        }
        return null;
    }

    private static Integer price(Connection connection, String item) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT price_cents FROM stock WHERE item = ?")) {
            select.setString(1, item);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? row.getInt(1) : null;
            }
        }
    }

    private static boolean insertOrder(Connection connection, NewOrder order) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO orders (id, item, quantity) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING")) {
            insert.setString(1, order.id());
            insert.setString(2, order.item());
            insert.setInt(3, order.quantity());
            return insert.executeUpdate() == 1;
        }
    }

    private static boolean reserve(Connection connection, NewOrder order) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(
                "UPDATE stock SET available = available - ? WHERE item = ? AND available >= ?")) {
            update.setInt(1, order.quantity());
            update.setString(2, order.item());
            update.setInt(3, order.quantity());
            return update.executeUpdate() == 1;
        }
    }

    private static Response problem(int status, String field, String detail) {
        return Response.status(status).type("application/problem+json")
                .entity(Map.of("status", status, "title", status == 409 ? "Conflict" : "Bad Request", "detail", detail,
                        "errors", List.of(Map.of("field", field, "message", detail))))
                .build();
    }
}
