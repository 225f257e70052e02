/** "12 minutes", "3 hours", "2 days": how soon the tutor usually answers. */
export function formatResponseTime(minutes: number) {
  if (minutes < 60) return `${Math.max(1, minutes)} ${minutes <= 1 ? 'minute' : 'minutes'}`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} ${hours === 1 ? 'hour' : 'hours'}`;
  return `${Math.round(hours / 24)} days`;
}
