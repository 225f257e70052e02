// The auth feature's screens that other features embed: the admin login asks for the second factor with the same
// step as the sign-in page.
export { SecondFactorForm } from './components/second-factor-form.tsx';
