/** The review queue's documents (see ./queries.ts). */
export const REVIEW_QUEUE = /* GraphQL */ 'query Reviews($first: Int) { reviewQueue(first: $first) { nodes { id profileId fundingSearchId state createdAt selection { lenderId products } } } }';
export const REVIEW_SELECTION = /* GraphQL */ `query Review($id: ID!) { reviewSelection(selectionId: $id) {
  selectionId state
  applicant { companyName companyNumber companyType sector creditGrade amount periodMonths useOfFunds urgency }
  lenders { lenderId lenderName matched products likelihood reasons missingFields { field message } } } }`;
export const SUBMIT_SELECTION = /* GraphQL */ 'mutation Submit($id: ID!) { submitReviewedSelection(selectionId: $id) { selectionId applications { lenderId applicationId } } }';
