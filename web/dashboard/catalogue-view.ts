/**
 * The lender catalogue (administrators): lenders and their products, each product's terms edited in
 * place (the form starts from its current terms and saving sends every term back, so changing one
 * field keeps the others), a lender's webhook URLs (prefilled, never its secrets) and new lenders.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type {
  CreateLenderMutation,
  LenderSettingsQuery,
  SaveProductMutation,
  UpdateLenderMutation,
  UpdateLenderMutationVariables,
} from './generated/graphql.js';
import { graphql } from './graphql-api.js';
import { CREATE_LENDER, LENDER_SETTINGS, PRODUCT_TYPES, SAVE_PRODUCT, UPDATE_LENDER } from './catalogue-queries.js';
import { app, attempt, enumLabel, focusAfterRender, formValues, loadLenders, numberOrUndefined, token, update } from './app.js';

type LenderSettings = LenderSettingsQuery['lenderSettings'][number];
type ProductTerms = LenderSettings['products'][number];

const catalogue = {
  /** Each lender's settings as last read (webhook URLs, products' complete terms), by lender id. */
  settings: new Map<number, LenderSettings>(),
  /** The product form's lender and type (the first lender's first type until chosen). */
  product: null as { lenderId: number; productType: string } | null,
  /** The lender whose webhook URLs the form shows. */
  webhookLenderId: null as number | null,
};

/**
 * The lenders with every lender's settings, read when the view opens: choosing a lender or a
 * product type then fills the forms at once, with nothing in flight to overwrite what is typed.
 */
export async function loadCatalogue(): Promise<void> {
  const [, { lenderSettings }] = await Promise.all([loadLenders(), graphql<LenderSettingsQuery>(token(), LENDER_SETTINGS)]);
  catalogue.settings = new Map(lenderSettings.map((l) => [l.lenderId, l]));
}

function openProduct(): { lenderId: number; productType: string } {
  return catalogue.product ?? { lenderId: app.lenders[0]?.id ?? 0, productType: PRODUCT_TYPES[0] };
}

/** The terms of the lender's product of that type, when it has one. */
const termsOf = (lenderId: number, productType: string | undefined): ProductTerms | undefined =>
  catalogue.settings.get(lenderId)?.products.find((p) => p.productType === productType);

async function saveProduct(form: HTMLFormElement): Promise<void> {
  const v = formValues(form);
  const lenderId = Number(v.lenderId);
  // Saving replaces every term: the terms this form does not show (criteria, fees, pricing) go back as they are.
  const { id: _id, ...kept } = termsOf(lenderId, v.productType) ?? ({} as Partial<ProductTerms>);
  const input = {
    ...kept,
    // GraphQL answers an unset requirement as null; the input leaves it out.
    ...(kept.requirements ? { requirements: Object.fromEntries(Object.entries(kept.requirements).filter(([, value]) => value !== null)) } : {}),
    productType: v.productType,
    name: v.name,
    minAmount: numberOrUndefined(v.minAmount),
    maxAmount: numberOrUndefined(v.maxAmount),
    minTermMonths: numberOrUndefined(v.minTermMonths),
    maxTermMonths: numberOrUndefined(v.maxTermMonths),
    annualRateMin: numberOrUndefined(v.annualRateMin),
    annualRateMax: numberOrUndefined(v.annualRateMax),
    minAnnualRevenue: numberOrUndefined(v.minAnnualRevenue),
    minTradingMonths: numberOrUndefined(v.minTradingMonths),
    instantOffer: v.instantOffer === 'on',
  };
  // The form's values go as entered (blank numbers left out): the server's validation names each missing or invalid field.
  await graphql<SaveProductMutation>(token(), SAVE_PRODUCT, { lenderId, input });
  catalogue.product = { lenderId, productType: v.productType ?? '' };
  await loadCatalogue();
}

async function createLender(form: HTMLFormElement): Promise<void> {
  const v = formValues(form);
  await graphql<CreateLenderMutation>(token(), CREATE_LENDER, {
    input: { name: v.name, priceBand: v.priceBand, responseTimeHours: numberOrUndefined(v.responseTimeHours) },
  });
  await loadLenders();
  form.reset();
}

async function setWebhookUrls(form: HTMLFormElement): Promise<void> {
  const v = formValues(form);
  const input = { applicationUrl: v.applicationUrl, updateUrl: v.updateUrl?.trim() ? v.updateUrl : null };
  const lenderId = Number(v.lenderId);
  await graphql<UpdateLenderMutation, UpdateLenderMutationVariables>(token(), UPDATE_LENDER, { id: lenderId, input });
  catalogue.webhookLenderId = lenderId;
  await loadCatalogue();
}

export function catalogueView(): TemplateResult {
  const onSubmit = (action: (form: HTMLFormElement) => Promise<void>, done: string) => (event: SubmitEvent) => {
    event.preventDefault();
    void attempt(() => action(event.target as HTMLFormElement), done);
  };
  const open = openProduct();
  const terms = termsOf(open.lenderId, open.productType);
  const productFormChanged = (event: Event) => {
    const v = formValues((event.target as HTMLElement).closest('form')!);
    catalogue.product = { lenderId: Number(v.lenderId), productType: v.productType ?? '' };
    update();
  };
  const edit = (lenderId: number, productType: string) => {
    catalogue.product = { lenderId, productType };
    update();
    focusAfterRender('product-form-title');
  };
  const editWebhooks = (lenderId: number) => {
    catalogue.webhookLenderId = lenderId;
    update();
    focusAfterRender('webhook-form-title');
  };
  // Property bindings (.value) set a field when the shown product changes and leave what the user types alone otherwise.
  const numberField = (name: keyof ProductTerms, label: string, required = true, step = 'any') =>
    html`<div><label for="product-${name}">${label}</label><input id="product-${name}" name=${name} type="number" min="0" step=${step} ?required=${required} .value=${terms ? String(terms[name]) : ''}></div>`;
  const webhooks = catalogue.webhookLenderId === null ? undefined : catalogue.settings.get(catalogue.webhookLenderId);
  return html`<section aria-labelledby="catalogue-title">
    <h2 id="catalogue-title">Lender catalogue</h2>
    <table class="stacked" data-testid="lenders">
      <thead><tr><th scope="col">Lender</th><th scope="col">Price band</th><th scope="col">Response time</th><th scope="col">Products</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
      <tbody>${app.lenders.map(
        (
          l,
        ) => html`<tr><td data-label="Lender">${l.name}</td><td data-label="Price band">${enumLabel(l.priceBand)}</td><td data-label="Response time">${l.responseTimeHours} h</td>
          <td data-label="Products"><ul class="products">${l.products.map(
            (p) => html`<li>${p.name} <span class="muted">(${enumLabel(p.productType)}${p.instantOffer ? ', instant offer' : ''})</span>
              <button type="button" class="link" @click=${() => edit(l.id, p.productType)} aria-label="Edit terms of ${p.name} (${l.name})">Edit terms</button></li>`,
          )}</ul></td>
          <td data-label=""><button type="button" @click=${() => editWebhooks(l.id)} aria-label="Webhook URLs of ${l.name}">Webhook URLs</button></td></tr>`,
      )}</tbody>
    </table>
    <h3 id="product-form-title" tabindex="-1">${terms ? `Edit ${terms.name}` : 'Save a product'}</h3>
    <p class="muted">${
      terms
        ? 'Shows the product’s current terms; saving replaces them (criteria, fees and pricing not shown here are kept).'
        : 'Creates the lender’s product of that type, or replaces its terms.'
    } Amounts in pounds, rates in % a year.</p>
    <form class="grid" aria-label="Save a product" data-testid="product-form" @submit=${onSubmit(saveProduct, 'Product saved.')}>
      <div><label for="product-lender">Lender</label><select id="product-lender" name="lenderId" required @change=${productFormChanged}>${app.lenders.map((l) => html`<option value=${String(l.id)} ?selected=${l.id === open.lenderId}>${l.name}</option>`)}</select></div>
      <div><label for="product-type">Product type</label><select id="product-type" name="productType" required @change=${productFormChanged}>${PRODUCT_TYPES.map((t) => html`<option value=${t} ?selected=${t === open.productType}>${enumLabel(t)}</option>`)}</select></div>
      <div><label for="product-name">Product name</label><input id="product-name" name="name" required maxlength="200" .value=${terms?.name ?? ''}></div>
      <div><label><input type="checkbox" name="instantOffer" .checked=${terms?.instantOffer ?? false}> Instant offer</label></div>
      ${numberField('minAmount', 'Minimum amount (£)')}
      ${numberField('maxAmount', 'Maximum amount (£)')}
      ${numberField('minTermMonths', 'Minimum term (months)', true, '1')}
      ${numberField('maxTermMonths', 'Maximum term (months)', true, '1')}
      ${numberField('annualRateMin', 'Lowest annual rate (%)')}
      ${numberField('annualRateMax', 'Highest annual rate (%)')}
      ${numberField('minAnnualRevenue', 'Minimum annual revenue (£)', false)}
      ${numberField('minTradingMonths', 'Minimum trading (months)', false, '1')}
      <div><button type="submit">Save product</button></div>
    </form>
    <h3 id="webhook-form-title" tabindex="-1">Webhook URLs${webhooks ? ` of ${webhooks.name}` : ' of a lender'}</h3>
    <p class="muted">Checked against the webhook URL policy (http or https; no private networks unless this deployment allows them). The signing secret is never shown.</p>
    <form class="grid" aria-label="Webhook URLs" data-testid="webhook-form" @submit=${onSubmit(setWebhookUrls, 'Webhook URLs saved.')}>
      <div><label for="webhook-lender">Lender</label><select id="webhook-lender" name="lenderId" required @change=${(e: Event) => {
        catalogue.webhookLenderId = Number((e.target as HTMLSelectElement).value);
        update();
      }}>
        ${webhooks ? nothing : html`<option value="" selected disabled>Choose a lender</option>`}
        ${app.lenders.map((l) => html`<option value=${String(l.id)} ?selected=${l.id === catalogue.webhookLenderId}>${l.name}</option>`)}</select></div>
      <div><label for="webhook-application">Application URL</label><input id="webhook-application" name="applicationUrl" type="url" required .value=${webhooks?.applicationUrl ?? ''}></div>
      <div><label for="webhook-update">Update URL (optional)</label><input id="webhook-update" name="updateUrl" type="url" .value=${webhooks?.updateUrl ?? ''}></div>
      <div><button type="submit">Save webhook URLs</button></div>
    </form>
    <h3>Add a lender</h3>
    <form class="grid" aria-label="Add a lender" @submit=${onSubmit(createLender, 'Lender added.')}>
      <div><label for="lender-name">Name</label><input id="lender-name" name="name" required maxlength="200"></div>
      <div><label for="lender-band">Price band</label><select id="lender-band" name="priceBand">${['LOW', 'AVERAGE', 'EXPENSIVE', 'MOST_EXPENSIVE'].map((b) => html`<option value=${b}>${enumLabel(b)}</option>`)}</select></div>
      <div><label for="lender-response">Response time (hours)</label><input id="lender-response" name="responseTimeHours" type="number" min="1" step="1"></div>
      <div><button type="submit">Add lender</button></div>
    </form>
  </section>`;
}

/** Forgets the settings read in this session (signing out). */
export function closeCatalogue(): void {
  catalogue.settings.clear();
  catalogue.product = null;
  catalogue.webhookLenderId = null;
}
