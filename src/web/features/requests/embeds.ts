// The requests feature's screens that other features embed: "Ask {name} again" after a completed job (the chat's job
// bar, Payments).
export { AskAgainLink } from './components/direct-request-panel.tsx';
