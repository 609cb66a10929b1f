/* The explorer's views, one line each: VIEW(ID, ops), where ops is the
 * `const struct view_ops` its folder (views/<name>/) defines. core/view.h
 * makes the ids of them (VIEW_FUNCTIONS...), loop/views.c the table; a
 * view opens another by its id, so no view calls another's code. The
 * first line is no home: the home is whatever the explorer opens first. */
VIEW(FUNCTIONS, functions_view)  /* the function table, home of a library */
VIEW(PAGE, page_view)            /* one function's page */
VIEW(BYTES, bytes_view)          /* the byte explorer: tree, detail, hex */
VIEW(TEXT, text_view)            /* the pager: IR, sources, help, problems */
VIEW(MEMBERS, members_view)      /* the members of a library's source archives */
VIEW(COMPARE, compare_view)      /* two open files compared (D) */
VIEW(FOLDER, folder_view)        /* the folder and archive list (mtlbx DIR) */
VIEW(RELEASE, release_view)      /* two folders or archives compared (D there) */
