package com.example.shop;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One charge of an order, as the charge handler writes it (table {@code charges} of db/shop.sql). */
@Entity
@Table(name = "charges")
public class ChargeRecord extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "order_id", nullable = false)
    public String orderId;

    @Column(name = "amount_cents", nullable = false)
    public int amountCents;

    @Column(name = "fencing_token", nullable = false)
    public long fencingToken;
}
