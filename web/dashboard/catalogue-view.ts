/** The lender catalogue (administrators): lenders, their products' terms and their webhook URLs. */
import { html, type TemplateResult } from 'lit';
import type { CreateLenderMutation, SaveProductMutation, UpdateLenderMutation, UpdateLenderMutationVariables } from './generated/graphql.js';
import { graphql } from './graphql-api.js';
import { CREATE_LENDER, PRODUCT_TYPES, SAVE_PRODUCT, UPDATE_LENDER } from './catalogue-queries.js';
import { app, attempt, enumLabel, formValues, loadLenders, numberOrUndefined, token } from './app.js';

async function saveProduct(form: HTMLFormElement): Promise<void> {
  const v = formValues(form);
  const input = {
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
  await graphql<SaveProductMutation>(token(), SAVE_PRODUCT, { lenderId: Number(v.lenderId), input });
  await loadLenders();
}

async function createLender(form: HTMLFormElement): Promise<void> {
  const v = formValues(form);
  await graphql<CreateLenderMutation>(token(), CREATE_LENDER, { input: { name: v.name, priceBand: v.priceBand, responseTimeHours: numberOrUndefined(v.responseTimeHours) } });
  await loadLenders();
  form.reset();
}

async function setWebhookUrls(form: HTMLFormElement): Promise<void> {
  const v = formValues(form);
  const input = { applicationUrl: v.applicationUrl, updateUrl: v.updateUrl?.trim() ? v.updateUrl : null };
  await graphql<UpdateLenderMutation, UpdateLenderMutationVariables>(token(), UPDATE_LENDER, { id: Number(v.lenderId), input });
}

export function catalogueView(): TemplateResult {
  const onSubmit = (action: (form: HTMLFormElement) => Promise<void>, done: string) => (event: SubmitEvent) => {
    event.preventDefault();
    void attempt(() => action(event.target as HTMLFormElement), done);
  };
  const numberField = (name: string, label: string, required = true, step = 'any') =>
    html`<div><label for="product-${name}">${label}</label><input id="product-${name}" name=${name} type="number" min="0" step=${step} ?required=${required}></div>`;
  return html`<section aria-labelledby="catalogue-title">
    <h2 id="catalogue-title">Lender catalogue</h2>
    <table data-testid="lenders">
      <thead><tr><th scope="col">Lender</th><th scope="col">Price band</th><th scope="col">Response time</th><th scope="col">Products</th></tr></thead>
      <tbody>${app.lenders.map(
        (l) => html`<tr><td>${l.name}</td><td>${l.priceBand}</td><td>${l.responseTimeHours} h</td>
          <td>${l.products.map((p) => html`${p.name} <span class="muted">(${enumLabel(p.productType)}${p.instantOffer ? ', instant offer' : ''})</span><br>`)}</td></tr>`,
      )}</tbody>
    </table>
    <h3>Save a product</h3>
    <p class="muted">Creates the lender's product of that type, or replaces its terms. Amounts in pounds, rates in % a year.</p>
    <form class="grid" aria-label="Save a product" @submit=${onSubmit(saveProduct, 'Product saved.')}>
      <div><label for="product-lender">Lender</label><select id="product-lender" name="lenderId" required>${app.lenders.map((l) => html`<option value=${String(l.id)}>${l.name}</option>`)}</select></div>
      <div><label for="product-type">Product type</label><select id="product-type" name="productType" required>${PRODUCT_TYPES.map((t) => html`<option value=${t}>${enumLabel(t)}</option>`)}</select></div>
      <div><label for="product-name">Product name</label><input id="product-name" name="name" required maxlength="200"></div>
      <div><label><input type="checkbox" name="instantOffer"> Instant offer</label></div>
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
    <h3>Webhook URLs of a lender</h3>
    <p class="muted">Checked against the webhook URL policy (http or https; no private networks unless this deployment allows them).</p>
    <form class="grid" aria-label="Webhook URLs" @submit=${onSubmit(setWebhookUrls, 'Webhook URLs saved.')}>
      <div><label for="webhook-lender">Lender</label><select id="webhook-lender" name="lenderId" required>${app.lenders.map((l) => html`<option value=${String(l.id)}>${l.name}</option>`)}</select></div>
      <div><label for="webhook-application">Application URL</label><input id="webhook-application" name="applicationUrl" type="url" required></div>
      <div><label for="webhook-update">Update URL (optional)</label><input id="webhook-update" name="updateUrl" type="url"></div>
      <div><button type="submit">Save webhook URLs</button></div>
    </form>
    <h3>Add a lender</h3>
    <form class="grid" aria-label="Add a lender" @submit=${onSubmit(createLender, 'Lender added.')}>
      <div><label for="lender-name">Name</label><input id="lender-name" name="name" required maxlength="200"></div>
      <div><label for="lender-band">Price band</label><select id="lender-band" name="priceBand">${['LOW', 'AVERAGE', 'EXPENSIVE', 'MOST_EXPENSIVE'].map((b) => html`<option value=${b}>${b}</option>`)}</select></div>
      <div><label for="lender-response">Response time (hours)</label><input id="lender-response" name="responseTimeHours" type="number" min="1" step="1"></div>
      <div><button type="submit">Add lender</button></div>
    </form>
  </section>`;
}
