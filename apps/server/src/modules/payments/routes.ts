import {
  bankLineRowSchema,
  bankLineSchema,
  ignoreLineSchema,
  manualMatchSchema,
  myPaymentsSchema,
  orderDetailSchema,
  payInputSchema,
  paymentAuditEntrySchema,
  payStartSchema,
  providerInfoSchema,
  providerWebhookAnswerSchema,
  refundInputSchema,
  refundViewSchema,
  staffEventTotalsSchema,
  statementImportResultSchema,
  statementQuerySchema,
} from '@tempora/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errors } from '../../errors.ts';
import { afterAccess, checked, fileAnswer, type ZodTypeProvider } from '../../lib/zod-routes.ts';
import { allows, isOrganiserStaff, requireEventStaff } from '../../policy/policy.ts';
import { parseInput } from '../../validate.ts';
import { creditNoteOf, invoiceLabel, invoiceOf } from './document-orders.ts';
import {
  creditNotePdf,
  entriesInvoicePdf,
  invoicePdf,
  ordersCsv,
  ordersXlsx,
  receiptPdf,
  refundsCsv,
} from './documents.ts';
import * as repo from './repository.ts';
import type { PaymentsService } from './service.ts';

const orderParams = z.object({ id: z.string().regex(/^\d{1,15}$/, 'an order number') });
/** A credit note of an order: its number in the organisation's sequence (`000012` or `12`). */
const creditNoteParams = orderParams.extend({
  number: z.string().regex(/^\d{1,9}$/, 'a credit note number'),
});
const eventParams = z.object({ event: z.string().min(1).max(100) });
const lineParams = eventParams.extend({ lineId: z.string().regex(/^\d{1,15}$/) });
const exportParams = eventParams.extend({ format: z.enum(['csv', 'xlsx']) });
/** `?lng=fr`: the CSV's amounts with a decimal comma (for a French-language Excel). */
const exportQuery = z.object({ lng: z.enum(['en', 'fr']).default('en') });
/**
 * Mollie's notification: `id=tr_…`, form-encoded. Any other body reads as an empty form, so its
 * 400 names the missing `id` as it always did.
 */
const mollieBody = z.preprocess(
  (body) => (typeof body === 'object' && body) || {},
  z.object({ id: z.string().regex(/^tr_\w{1,64}$/, 'a Mollie payment id') }),
);

/** Routes of payments for payers and captains (paths in packages/contracts/src/payments.ts). */
export async function paymentRoutes(fastify: FastifyInstance, { service }: { service: PaymentsService }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app;

  /** An order the caller may see: its payer, its deposit's captain, or the organiser's staff. */
  async function orderAccess(request: FastifyRequest) {
    // The 404-vs-403 rule (policy/policy.ts, issue 30): 401 before any lookup (the order number
    // is declared `afterAccess(orderParams)`), and the same 404 for a missing order and one the
    // caller has no part in.
    const user = request.user;
    if (!user) throw errors.unauthorized();
    const { id }: { id: string } = checked(request, 'params');
    const notFound = () => errors.notFound('ORDER_NOT_FOUND', `No order '${id}'`);
    const order = await repo.findOrder(database, id);
    if (!order) throw notFound();
    // Only a deposit's order has a captain (an entries order or a document's: no lookup).
    const [deposit] = order.depositId
      ? await database.query<{ captain: string }>(
          'SELECT captain_sub::text AS captain FROM deposits WHERE id = $1::bigint',
          [order.depositId],
        )
      : [];
    // A confirmation document's order (issue 29) is also seen by whoever reads that document
    // (the confirmation account as well as the organisation's staff).
    const staff =
      isOrganiserStaff(request, order.organisationId) ||
      (order.documentId !== null &&
        allows(request, 'read', 'Confirmation', { organisationId: order.organisationId }));
    if (order.payerSub !== user.sub && deposit?.captain !== user.sub && !staff) throw notFound();
    return { order, isPayer: order.payerSub === user.sub, staff };
  }

  app.get(
    '/api/payments/providers',
    { schema: { access: 'public', response: { 200: providerInfoSchema } } },
    async () => ({ providers: service.providers() }),
  );

  app.get(
    '/api/payments/mine',
    { schema: { access: 'signed-in', response: { 200: myPaymentsSchema } } },
    async (request) => {
      if (!request.user) throw errors.unauthorized();
      const orders = await service.details(
        await repo.ordersWhere(database, 'o.payer_sub = $1', [request.user.sub]),
      );
      return { orders: orders.reverse(), refunds: orders.flatMap((o) => o.refunds) };
    },
  );

  app.get(
    '/api/payments/orders/:id',
    { schema: { access: 'party', params: afterAccess(orderParams), response: { 200: orderDetailSchema } } },
    async (request) => {
      const { order } = await orderAccess(request);
      return (await service.details([order]))[0]!;
    },
  );

  app.post(
    '/api/payments/orders/:id/pay',
    {
      schema: {
        access: 'party',
        params: afterAccess(orderParams),
        body: afterAccess(payInputSchema),
        response: { 200: payStartSchema },
      },
    },
    async (request) => {
      const { order, isPayer, staff } = await orderAccess(request);
      if (!isPayer && !staff) throw errors.forbidden('Only the payer pays an order');
      const input = checked(request, 'body');
      if (!service.providers().includes(input.provider)) {
        throw errors.conflict('PROVIDER_DISABLED', `${input.provider} is not configured on this server`);
      }
      return service.pay(order, input.provider, input.returnUrl);
    },
  );

  // A PDF: no JSON answer to declare.
  app.get(
    '/api/payments/orders/:id/receipt.pdf',
    {
      schema: {
        access: 'party',
        params: afterAccess(orderParams),
        response: { 200: fileAnswer(['application/pdf'], 'A PDF file') },
      },
    },
    async (request, reply) => {
      const { order } = await orderAccess(request);
      const [detail] = await service.details([order]);
      const vat = order.depositId ? await repo.depositVat(database, order.depositId) : null;
      const pdf = await receiptPdf(detail!, vat);
      reply.header('content-type', 'application/pdf');
      reply.header('content-disposition', `inline; filename="receipt-${order.id}.pdf"`);
      return reply.send(pdf);
    },
  );

  /**
   * The invoice of an order with one: a confirmation document's (issue 29), an entries order once
   * paid (issue 38); 404 for an order without one.
   */
  app.get(
    '/api/payments/orders/:id/invoice.pdf',
    {
      schema: {
        access: 'party',
        params: afterAccess(orderParams),
        response: { 200: fileAnswer(['application/pdf'], 'A PDF file') },
      },
    },
    async (request, reply) => {
      const { order } = await orderAccess(request);
      const invoice = await invoiceOf(database, order.id);
      if (!invoice) throw errors.notFound('INVOICE_NOT_FOUND', `Order '${order.id}' has no invoice`);
      const [detail] = await service.details([order]);
      const number = invoiceLabel(invoice.number);
      const head = { ...invoice, number, issuedAt: new Date(invoice.issuedAt).toISOString() };
      // An entries order's invoice (issue 38): its lines, in the runner's language.
      const pdf = order.registration
        ? await entriesInvoicePdf(detail!, head, ...(await repo.entryInvoiceLines(database, order.id)))
        : await invoicePdf(detail!, head);
      reply.header('content-type', 'application/pdf');
      reply.header('content-disposition', `inline; filename="invoice-${number}.pdf"`);
      return reply.send(pdf);
    },
  );

  /**
   * A credit note (avoir, issue 38) of a refund of an invoiced order: the payer or staff; in the
   * runner's language for an entries order. 404 for a number that is not this order's.
   */
  app.get(
    '/api/payments/orders/:id/credit-notes/:number',
    {
      schema: {
        access: 'party',
        params: afterAccess(creditNoteParams),
        response: { 200: fileAnswer(['application/pdf'], 'A PDF file') },
      },
    },
    async (request, reply) => {
      const { order } = await orderAccess(request);
      const { number: asked }: { number: string } = checked(request, 'params');
      const note = await creditNoteOf(database, order.id, Number(asked));
      if (!note)
        throw errors.notFound('CREDIT_NOTE_NOT_FOUND', `Order '${order.id}' has no credit note ${asked}`);
      const invoice = await invoiceOf(database, order.id);
      const [detail] = await service.details([order]);
      const number = invoiceLabel(note.number);
      const lng = order.registration ? (await repo.entryInvoiceLines(database, order.id))[1] : 'both';
      const pdf = await creditNotePdf(
        detail!,
        {
          ...note,
          number,
          invoiceNumber: invoiceLabel(note.invoiceNumber),
          invoiceIssuedAt: invoice ? new Date(invoice.issuedAt).toISOString() : null,
          issuedAt: new Date(note.issuedAt).toISOString(),
        },
        lng,
      );
      reply.header('content-type', 'application/pdf');
      reply.header('content-disposition', `inline; filename="credit-note-${number}.pdf"`);
      return reply.send(pdf);
    },
  );
}

/** Organiser staff: settings, all orders, statements, the matching queue, refunds, exports. */
export async function paymentStaffRoutes(
  fastify: FastifyInstance,
  { service }: { service: PaymentsService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app;
  /** The event of a route whose params are `eventParams` or `exportParams` (checked up front). */
  const staffOf = async (request: FastifyRequest<{ Params: { event: string } }>) =>
    requireEventStaff(request, database, request.params.event);
  /**
   * A bank line's route: the event is checked before the access (it is looked up), the line
   * number after it (`afterAccess(lineParams)`, read with `checked`), as they always were.
   */
  const staffOfLine = async (request: FastifyRequest) => {
    const { event } = parseInput(eventParams, request.params, 'params');
    const found = await requireEventStaff(request, database, event);
    const { lineId }: { lineId: string } = checked(request, 'params');
    return { event: found, lineId };
  };

  app.get(
    '/api/payments/staff/events',
    { schema: { access: 'signed-in', response: { 200: z.array(staffEventTotalsSchema) } } },
    async (request) => {
      if (!request.user) throw errors.unauthorized();
      const events = await database.query<{ eventId: string; eventName: string; organisationId: string }>(
        `SELECT id AS "eventId", name AS "eventName", organisation_id::text AS "organisationId" FROM events ORDER BY start_date DESC`,
      );
      const mine = events.filter((e) => isOrganiserStaff(request, e.organisationId));
      if (!mine.length) return [];
      const totals = await database.query<{
        eventId: string;
        deposits: number;
        orders: number;
        dueCents: number;
        paidCents: number;
        refundedCents: number;
      }>(
        `SELECT e.id AS "eventId",
              (SELECT count(*)::int FROM deposits d WHERE d.event_id = e.id) AS deposits,
              count(o.id)::int AS orders,
              coalesce(sum(o.amount_cents) FILTER (WHERE o.state IN ('awaiting_payment', 'paid', 'refunded')), 0)::int AS "dueCents",
              coalesce(sum(o.paid_cents), 0)::int AS "paidCents",
              coalesce(sum(o.refunded_cents), 0)::int AS "refundedCents"
         FROM events e LEFT JOIN orders o ON o.event_id = e.id WHERE e.id = ANY($1::text[]) GROUP BY e.id`,
        [mine.map((e) => e.eventId)],
      );
      const queue = await database.query<{ organisationId: string; n: number }>(
        `SELECT organisation_id::text AS "organisationId", count(*)::int AS n FROM bank_lines WHERE state = 'manual'
        AND organisation_id = ANY($1::uuid[]) GROUP BY organisation_id`,
        [[...new Set(mine.map((e) => e.organisationId))]],
      );
      return mine.map((e) => {
        const t = totals.find((x) => x.eventId === e.eventId);
        return {
          ...e,
          deposits: t?.deposits ?? 0,
          orders: t?.orders ?? 0,
          dueCents: t?.dueCents ?? 0,
          paidCents: t?.paidCents ?? 0,
          refundedCents: t?.refundedCents ?? 0,
          queue: queue.find((q) => q.organisationId === e.organisationId)?.n ?? 0,
        };
      });
    },
  );

  app.get(
    '/api/payments/staff/events/:event/orders',
    { schema: { access: 'manager', params: eventParams, response: { 200: z.array(orderDetailSchema) } } },
    async (request) => {
      const event = await staffOf(request);
      return service.details(await repo.ordersWhere(database, 'o.event_id = $1', [event.id]));
    },
  );

  // Statements arrive as the file's text (CODA is ASCII lines, camt.053 XML).
  app.register(async (plain) => {
    const scoped = plain.withTypeProvider<ZodTypeProvider>();
    scoped.addContentTypeParser(
      ['application/xml', 'text/xml', 'application/octet-stream'],
      { parseAs: 'string' },
      (_request, body, done) => done(null, body),
    );
    scoped.post(
      '/api/payments/staff/events/:event/statements',
      {
        // The body is the statement file's text (CODA or camt.053 XML), parsed by the service: no
        // JSON body to declare.
        schema: {
          access: 'manager',
          params: eventParams,
          querystring: afterAccess(statementQuerySchema),
          response: { 201: statementImportResultSchema },
        },
      },
      async (request, reply) => {
        const event = await staffOf(request);
        const query = checked(request, 'querystring');
        if (typeof request.body !== 'string' || !request.body.trim()) {
          throw errors.badRequest(
            'STATEMENT_INVALID',
            'Send the statement file as text/plain or application/xml',
          );
        }
        const result = await service.importStatement(
          event.organisationId,
          request.user!.sub,
          request.body,
          query.format,
          query.name,
        );
        reply.code(201);
        return result;
      },
    );
  });

  app.get(
    '/api/payments/staff/events/:event/queue',
    { schema: { access: 'manager', params: eventParams, response: { 200: z.array(bankLineSchema) } } },
    async (request) => {
      const event = await staffOf(request);
      return service.queue(event.organisationId);
    },
  );

  app.post(
    '/api/payments/staff/events/:event/queue/:lineId/match',
    {
      schema: {
        access: 'manager',
        params: afterAccess(lineParams),
        body: afterAccess(manualMatchSchema),
        response: { 200: bankLineRowSchema },
      },
    },
    async (request) => {
      const { event, lineId } = await staffOfLine(request);
      const input = checked(request, 'body');
      await service.manualMatch(
        event.organisationId,
        lineId,
        input.allocations,
        request.user!.sub,
        input.note,
      );
      return (await repo.bankLinesWhere(database, 'id = $1::bigint', [lineId]))[0]!;
    },
  );

  app.post(
    '/api/payments/staff/events/:event/queue/:lineId/ignore',
    {
      schema: {
        access: 'manager',
        params: afterAccess(lineParams),
        body: afterAccess(ignoreLineSchema),
        response: { 200: bankLineRowSchema },
      },
    },
    async (request) => {
      const { event, lineId } = await staffOfLine(request);
      const { note } = checked(request, 'body');
      await service.ignoreLine(event.organisationId, lineId, request.user!.sub, note);
      return (await repo.bankLinesWhere(database, 'id = $1::bigint', [lineId]))[0]!;
    },
  );

  app.get(
    '/api/payments/staff/events/:event/audit',
    {
      schema: { access: 'manager', params: eventParams, response: { 200: z.array(paymentAuditEntrySchema) } },
    },
    async (request) => {
      const event = await staffOf(request);
      return repo.auditOf(database, event.organisationId, event.id);
    },
  );

  app.post(
    '/api/payments/staff/events/:event/refunds',
    {
      schema: {
        access: 'manager',
        params: eventParams,
        body: afterAccess(refundInputSchema),
        response: { 201: z.array(refundViewSchema) },
      },
    },
    async (request, reply) => {
      const event = await staffOf(request);
      const input = checked(request, 'body');
      const created = await service.refund(event.id, event.organisationId, input, request.user!.sub);
      reply.code(201);
      return created;
    },
  );

  // A CSV file for the bank: no JSON answer to declare.
  app.get(
    '/api/payments/staff/events/:event/refunds.csv',
    {
      schema: {
        access: 'manager',
        params: eventParams,
        response: { 200: fileAnswer(['text/csv'], 'A CSV file') },
      },
    },
    async (request, reply) => {
      const event = await staffOf(request);
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="refunds-${event.id}.csv"`);
      return refundsCsv(await service.refundExport(event.id));
    },
  );

  // A CSV or XLSX file: no JSON answer to declare.
  app.get(
    '/api/payments/staff/events/:event/export.:format',
    {
      schema: {
        access: 'manager',
        params: exportParams,
        querystring: exportQuery,
        response: {
          200: fileAnswer(
            ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
            'A CSV or XLSX file',
          ),
        },
      },
    },
    async (request, reply) => {
      const { format } = request.params;
      const { lng } = request.query;
      const event = await staffOf(request);
      const orders = await service.details(await repo.ordersWhere(database, 'o.event_id = $1', [event.id]));
      reply.header('content-disposition', `attachment; filename="payments-${event.id}.${format}"`);
      if (format === 'csv') {
        reply.header('content-type', 'text/csv; charset=utf-8');
        return ordersCsv(orders, lng);
      }
      reply.header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      return reply.send(await ordersXlsx(orders));
    },
  );
}

/**
 * Provider notifications. Mollie posts `id=tr_…` (form-encoded) and we fetch the payment from
 * Mollie; Stripe posts a signed event we verify on the raw body. Both answer 200 once handled,
 * also for a repeat (idempotent).
 */
export async function paymentWebhookRoutes(
  fastify: FastifyInstance,
  { service }: { service: PaymentsService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  // Stripe signs the exact bytes it sent: keep the raw body (this plugin's scope only).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    '/api/payments/webhooks/mollie',
    {
      schema: {
        access: 'public',
        consumes: ['application/x-www-form-urlencoded'],
        body: mollieBody,
        response: { 200: providerWebhookAnswerSchema },
      },
    },
    async (request) => service.mollieWebhook(request.body.id),
  );

  app.post(
    '/api/payments/webhooks/stripe',
    {
      // The body is Stripe's signed event as the exact bytes it sent (the signature is checked over
      // them, service.stripeWebhook): no body declared, so nothing parses or reshapes it.
      schema: { access: 'public', response: { 200: providerWebhookAnswerSchema } },
    },
    async (request) => {
      const signature = request.headers['stripe-signature'];
      if (typeof signature !== 'string' || typeof request.body !== 'string') {
        throw errors.badRequest('SIGNATURE_INVALID', 'A signed Stripe event is expected');
      }
      return service.stripeWebhook(request.body, signature);
    },
  );
}
