/**
 * Built-in taxonomy, schemas and policy, used when the vault has no file of that id under
 * `_brain_config/mail/`. Users edit copies in their vault (written by "Copy defaults to vault").
 */
export const DEFAULT_TAXONOMIES: Record<string, string> = {
  default: `# Mail triage taxonomy. Edit freely: intents with a description, examples and where they go.
# route: "vault:<folder>" files the mail as a note in that vault folder; "route:<name>" hands it
# to that Mailroom router route. urgency: a prior for the intent (low | medium | high).
name: Default
intents:
  - id: billing
    description: invoices, payments, receipts, charges, refunds, amounts due, bank transfer
    route: "vault:Finance/Invoices"
    examples:
      - Please find attached invoice INV-1001, total due 1,200.00 EUR by March 3
      - Your payment was received, here is your receipt
      - I was charged twice, please refund the duplicate charge
  - id: scheduling
    description: meetings, calls, calendar invites, availability, reschedule, appointment
    route: "vault:Meetings"
    examples:
      - Can we meet on Tuesday at 3pm to go over the plan?
      - I need to reschedule our call to next week
      - Are you available for a 30 minute call on Thursday?
  - id: support
    description: bug, error, broken, outage, not working, cannot log in, crash, help request
    route: "route:support-tickets"
    urgency: medium
    examples:
      - The app crashes when I upload a file, can you help?
      - I cannot log in to my account since this morning
      - Production is down and customers see errors
  - id: sales
    description: pricing, quote, demo, purchase, proposal, contract, licence, discount
    route: "vault:Sales/Leads"
    examples:
      - Could you send a quote for 50 seats?
      - We are interested in a demo of your product
      - What does the enterprise plan cost?
  - id: newsletter
    description: newsletter, digest, announcement, unsubscribe, product update, weekly roundup
    route: "vault:Reading"
    urgency: low
    examples:
      - Our weekly digest of the best articles
      - Product update - new features this month. Unsubscribe here
  - id: personal
    description: family, friends, dinner, weekend, birthday, photos, catching up
    route: "vault:Personal"
    urgency: low
    examples:
      - Dinner at our place on Saturday?
      - Happy birthday! Here are the photos from the weekend
urgency:
  high: [urgent, asap, as soon as possible, immediately, emergency, outage, is down, production down, critical, today, by end of day, eod, tonight, overdue, final notice, right away, blocking, blocked, security incident, breach]
  low: [newsletter, digest, unsubscribe, no rush, whenever, fyi, no hurry, when you get a chance, at your convenience, next month]
`,
};

export const DEFAULT_SCHEMAS: Record<string, string> = {
  invoice: JSON.stringify(
    {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: 'Invoice',
      type: 'object',
      additionalProperties: false,
      properties: {
        vendor: { type: 'string', description: 'who issued the invoice', 'x-cues': ['vendor', 'supplier', 'company', 'from', 'issuer'] },
        invoice_number: { type: 'string', 'x-cues': ['invoice number', 'invoice no', 'invoice #', 'invoice id', 'invoice', 'rechnung', 'facture', 'reference', 'ref'] },
        amount: { type: 'number', 'x-cues': ['total', 'amount due', 'amount', 'balance due', 'total due'] },
        currency: { type: 'string', pattern: '^[A-Z]{3}$' },
        due_date: { type: 'string', format: 'date', 'x-cues': ['due date', 'due', 'payable by', 'pay by'] },
        iban: { type: 'string', 'x-cues': ['iban'] },
      },
      required: ['invoice_number', 'amount', 'due_date'],
    },
    null,
    2,
  ),
  meeting_request: JSON.stringify(
    {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: 'Meeting request',
      type: 'object',
      additionalProperties: false,
      properties: {
        date: { type: 'string', format: 'date', 'x-cues': ['date', 'day', 'when'] },
        time: { type: 'string', pattern: '^\\d{2}:\\d{2}$', 'x-cues': ['time', 'at'] },
        location: { type: 'string', 'x-cues': ['location', 'where', 'venue', 'place', 'room'] },
        organizer_email: { type: 'string', format: 'email', 'x-cues': ['organizer', 'from'] },
      },
      required: ['date'],
    },
    null,
    2,
  ),
  contact: JSON.stringify(
    {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: 'Contact',
      type: 'object',
      additionalProperties: false,
      properties: {
        name: { type: 'string', 'x-cues': ['name', 'contact'] },
        email: { type: 'string', format: 'email' },
        phone: { type: 'string', 'x-cues': ['phone', 'tel', 'mobile', 'cell'] },
        company: { type: 'string', 'x-cues': ['company', 'organisation', 'organization', 'employer'] },
        address: { type: 'string', 'x-cues': ['address', 'street', 'office'] },
      },
      required: ['email'],
    },
    null,
    2,
  ),
};

export const DEFAULT_POLICIES: Record<string, string> = {
  default: `---
tone: friendly and concise
signature: |
  Best regards,
  The Team
max_words: 180
# always | risky | never — "risky": a human approves drafts that raise any risk flag.
approval: risky
must:
  - thank the sender
must_not:
  - guarantee
  - promise a refund
internal_domains: []
---
Reply in the sender's language when possible. Answer the latest message; never commit to money,
discounts or dates on the company's behalf — say a colleague will confirm instead.
`,
  strict: `---
tone: formal
signature: |
  Kind regards,
  Customer Care
max_words: 120
approval: always
must_not:
  - guarantee
  - refund
  - discount
---
Formal replies only. Every draft is approved by a human before sending.
`,
};
