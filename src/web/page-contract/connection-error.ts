/** SPEC.md §8: what a visitor reads when the server (or a file of the app's code) could not be reached. */
export const CONNECTION_ERROR_MESSAGE =
  'Connection error - Could not connect to the server. Please check your internet connection.';
