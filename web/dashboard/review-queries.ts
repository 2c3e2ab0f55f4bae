/** The review queue's documents (see ./queries.ts). */
const QUEUE_ITEM = 'id state createdAt reason company { profileId name number type } assignee { userId name email } selection { lenderId products }';
export const REVIEW_QUEUE = /* GraphQL */ `query Reviews($first: Int) { reviewQueue(first: $first) { nodes { ${QUEUE_ITEM} } } }`;
export const REVIEW_SELECTION = /* GraphQL */ `query Review($id: ID!) { reviewSelection(selectionId: $id) {
  selectionId state reason
  company { profileId name number type }
  assignee { userId name email }
  applicant { companyName companyNumber companyType sector creditGrade amount periodMonths useOfFunds urgency }
  lenders { lenderId lenderName matched products likelihood reasons missingFields { field message } }
  notes { id text createdAt actor { name email } }
  history { id kind text createdAt actor { name email } } } }`;
export const SUBMIT_SELECTION =
  /* GraphQL */ 'mutation Submit($id: ID!) { submitReviewedSelection(selectionId: $id) { selectionId applications { lenderId applicationId } } }';
export const REJECT_SELECTION =
  /* GraphQL */ 'mutation RejectSelection($id: ID!, $reason: String!) { rejectReviewSelection(selectionId: $id, reason: $reason) { id state reason } }';
export const RETURN_SELECTION =
  /* GraphQL */ 'mutation ReturnSelection($id: ID!, $reason: String) { returnReviewSelection(selectionId: $id, reason: $reason) { id state reason } }';
export const ASSIGN_SELECTION =
  /* GraphQL */ 'mutation AssignSelection($id: ID!) { assignReviewSelectionToMe(selectionId: $id) { id state assignee { userId name email } } }';
export const ADD_REVIEW_NOTE =
  /* GraphQL */ 'mutation AddReviewNote($id: ID!, $text: String!) { addReviewNote(selectionId: $id, text: $text) { id text createdAt } }';
