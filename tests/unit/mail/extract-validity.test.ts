/**
 * Extraction never emits a value its schema refuses: a candidate that fails the field's own
 * pattern/format is passed over for the next one, a value the whole schema refuses is replaced by
 * the field's next candidate (or left out), references to the schema's own definitions are
 * followed, and a required field with no evidence is named in `missing_fields` and
 * `validation_errors` while the rest of the object is still returned.
 */
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { extractToSchema, resolvedField } from '../../../electron/core/domains/mail/extract';
import { extractionMessage } from './helpers';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
const msg = (subject: string, text: string) => extractionMessage({ subject, text });
/** Whether data validates against the schema with the required fields that are missing taken out of `required`. */
const validExceptMissing = (schema: Record<string, unknown>, data: Record<string, unknown>) => {
  const required = ((schema.required ?? []) as string[]).filter((f) => f in data);
  return ajv.validate({ ...schema, required }, data);
};

describe('extraction: every emitted value validates against the schema', () => {
  it("a field whose pattern the first candidate fails takes the next candidate that passes it", async () => {
    // The labelled line comes first but is 5 characters; the pattern wants a 6-character locator.
    const text = 'Hello,\n\nBooking reference: ABC12 (old, cancelled)\n\nYour new booking reference is QX7P2M. Please keep it for check-in.\n';
    const schema = { type: 'object', properties: { booking_reference: { type: 'string', description: 'The booking reference', pattern: '^[A-Z0-9]{6}$' } }, required: ['booking_reference'] };
    const r = await extractToSchema(msg('Your trip', text), schema);
    expect(r.data.booking_reference).toBe('QX7P2M');
    expect(ajv.validate(schema, r.data)).toBe(true);
  });

  it('the same field without the pattern takes the labelled value (the pattern alone made the difference)', async () => {
    const text = 'Hello,\n\nBooking reference: ABC12\n\nThanks for booking with us.\n';
    const schema = { type: 'object', properties: { booking_reference: { type: 'string', description: 'The booking reference' } } };
    expect((await extractToSchema(msg('Your trip', text), schema)).data.booking_reference).toBe('ABC12');
  });

  it('a field given by reference to the schema\'s own $defs is read with that definition\'s pattern and format', async () => {
    const text = 'Flight: LX 318 / ZRH -> LHR\nDeparture: 2026-03-12\nBooked on 1 March, ref 12.\n';
    const schema = {
      type: 'object',
      $defs: { iata: { type: 'string', pattern: '^[A-Z]{3}$' }, day: { type: 'string', format: 'date' } },
      properties: { origin: { $ref: '#/$defs/iata', description: 'Departure airport' }, destination: { $ref: '#/$defs/iata', description: 'Arrival airport' }, departure_date: { $ref: '#/$defs/day' } },
      required: ['origin', 'destination'],
    };
    expect(resolvedField(schema.properties.origin, schema)).toMatchObject({ type: 'string', pattern: '^[A-Z]{3}$', description: 'Departure airport' });
    const r = await extractToSchema(msg('Your flight', text), schema);
    expect(r.data).toMatchObject({ origin: 'ZRH', destination: 'LHR', departure_date: '2026-03-12' });
    expect(ajv.validate(schema, r.data)).toBe(true);
  });

  it('a value the whole schema refuses (a rule outside the field) is replaced by the next candidate, and the swap is reported', async () => {
    // The field says "an airline code and number"; the schema as a whole only takes Swiss flights.
    const text = 'Outbound flight: BA 710 (codeshare)\nOperated as flight LX 318 by SWISS.\n';
    const schema = {
      type: 'object',
      properties: { flight_number: { type: 'string', pattern: '^[A-Z0-9]{2}\\s?\\d{2,4}$', description: 'The flight number' } },
      allOf: [{ properties: { flight_number: { pattern: '^LX' } } }],
    };
    const r = await extractToSchema(msg('Trip', text), schema);
    expect(String(r.data.flight_number)).toMatch(/^LX\s?318$/);
    expect(ajv.validate(schema, r.data)).toBe(true);
    expect(r.validation_errors.join(' ')).toMatch(/flight_number: found "BA ?710".*took the next candidate/);
  });

  it('a value is checked as it is emitted: "Mr Jon Eriksen" fits an 11-character limit once the title is dropped', async () => {
    const text = 'Dear customer,\n\nPassenger: Mr Jon Eriksen\nSeat: 14C\n';
    const schema = { type: 'object', properties: { passenger_name: { type: 'string', description: 'The traveller', maxLength: 11 } } };
    const r = await extractToSchema(msg('Boarding pass', text), schema);
    expect(r.data.passenger_name).toBe('Jon Eriksen');
  });

  it('a required field with no evidence is named, and everything found is still returned valid', async () => {
    const text = 'Invoice INV-2041\nInvoice date: 2026-02-27\nTotal: EUR 120.00\n';
    const schema = {
      type: 'object',
      properties: { invoice_number: { type: 'string', pattern: '^INV-\\d+$' }, total: { type: 'number' }, iban: { type: 'string', description: 'IBAN to pay to', pattern: '^[A-Z]{2}\\d{2}[A-Z0-9]{10,30}$' } },
      required: ['invoice_number', 'total', 'iban'],
    };
    const r = await extractToSchema(msg('Invoice', text), schema);
    expect(r.data).toMatchObject({ invoice_number: 'INV-2041', total: 120 });
    expect(r.data.iban).toBeUndefined();
    expect(r.missing_fields[0]).toBe('iban');
    expect(r.validation_errors).toContain('iban: required but not found in the message');
    expect(validExceptMissing(schema, r.data)).toBe(true);
  });
});
