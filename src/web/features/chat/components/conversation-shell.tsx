import { ArrowLeft, EllipsisVertical, Search } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { DropdownMenu, DropdownMenuContent, DropdownMenuTrigger } from '#web/components/ui/dropdown-menu.tsx';
import { Input } from '#web/components/ui/input.tsx';

type ConversationShellProps = {
  title: string;
  subtitle: ReactNode;
  avatar: ReactNode;
  /** The header menu's items: Report user, or Clear chat for Guru AI. */
  menuItems: ReactNode;
  onBack: () => void;
  /** The messages and composer, given the message search's text. */
  children: (searchQuery: string) => ReactNode;
};

/** A conversation's frame: header with back (phones), message search with Cancel and the menu; then the body. */
export function ConversationShell({ title, subtitle, avatar, menuItems, onBack, children }: ConversationShellProps) {
  const [isSearching, setSearching] = useState(false);
  const [searchQuery, setSearchQuery] = useState('');
  const closeSearch = () => {
    setSearching(false);
    setSearchQuery('');
  };

  return (
    <section aria-label={`Conversation with ${title}`} className="flex min-h-0 flex-1 flex-col bg-background">
      <header className="flex min-h-16 items-center gap-2 border-b px-2 py-2 sm:px-3">
        <Button variant="ghost" size="icon" className="md:hidden" aria-label="Back to chats" onClick={onBack}>
          <ArrowLeft aria-hidden="true" className="size-5" />
        </Button>
        {isSearching ? (
          <form role="search" className="flex flex-1 items-center gap-2" onSubmit={(event) => event.preventDefault()}>
            <Input
              type="search"
              autoFocus
              aria-label="Search messages"
              placeholder="Search messages"
              value={searchQuery}
              onChange={(event) => setSearchQuery(event.target.value)}
              onKeyDown={(event) => event.key === 'Escape' && closeSearch()}
            />
            <Button variant="ghost" onClick={closeSearch}>
              Cancel
            </Button>
          </form>
        ) : (
          <>
            {avatar}
            <div className="min-w-0 flex-1">
              <h2 className="truncate font-semibold">{title}</h2>
              <div className="text-xs text-muted-foreground">{subtitle}</div>
            </div>
            <Button variant="ghost" size="icon" aria-label="Search messages" onClick={() => setSearching(true)}>
              <Search aria-hidden="true" className="size-5" />
            </Button>
            <DropdownMenu>
              <DropdownMenuTrigger asChild>
                <Button variant="ghost" size="icon" aria-label="Conversation menu">
                  <EllipsisVertical aria-hidden="true" className="size-5" />
                </Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent align="end">{menuItems}</DropdownMenuContent>
            </DropdownMenu>
          </>
        )}
      </header>
      {children(searchQuery)}
    </section>
  );
}
