// The requests feature's public entry, by concern in its own modules (one transaction per mutation, realtime
// events published after the commit).
export {
  createRequest,
  getRequestAttachment,
  getRequestDetail,
  listMyRequests,
  type CreateRequestOptions,
} from './requests.ts';
export { acceptBid, acceptOfferWithin, listOffers } from './offers.ts';
export { listJobs, placeBid } from './jobs.ts';
export { closeRefundedJob, completeJob, markJobDelivered } from './completion.ts';
export { closeExpiredRequests, requestExpiryJob } from './expiry.ts';
export {
  declineDirectRequest,
  directAnswerJob,
  markUnansweredDirectRequests,
  openDirectRequestToAll,
} from './direct.ts';
export { findOpenJobOfPair, listSharedJobs } from './shared-jobs.ts';

export { eraseRequestAttachmentsOf, withdrawFromMarketplace } from './leaving-user.ts';
